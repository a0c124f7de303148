import { describe, expect, it } from 'vitest';
import { parseLookup } from '../../src/parsing/index.ts';
import { failure, lookup, saturday, window } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('databases', () => {
    it('keeps order and case, drops exact duplicates, joins plain words into one phrase', () => {
      expect(
        lookup('#HCSM breast cancer, 4711 group:Oncology "patient safety", #HCSM #hcsm last week')
          .databases,
      ).toEqual(['#HCSM', 'breast cancer', '4711', 'group:Oncology', 'patient safety', '#hcsm']);
    });

    it('reads groups by ID, name and quoted name, with the keyword in any case', () => {
      expect(lookup('group:12 GROUP:Oncology Group:"Rare  Diseases"').databases).toEqual([
        'group:12',
        'group:Oncology',
        'group:Rare Diseases',
      ]);
    });

    it('accepts Unicode hashtags', () => {
      expect(lookup('#santé #日本 #x_1').databases).toEqual(['#santé', '#日本', '#x_1']);
    });

    it('leaves time-like words inside quotes alone', () => {
      expect(lookup('"today show" "last week tonight"').databases).toEqual([
        'today show',
        'last week tonight',
      ]);
    });

    it('refuses abbreviations of days and months in an unquoted phrase, and reads them as times where something marks them', () => {
      expect(failure('sun safety').message).toBe(
        'I can\'t read “sun safety”: “sun” is a word I read as a time, a schedule or an option, and it makes none here. If “sun safety” is a database, put it in quotes: "sun safety". Try: /influencers "sun safety"',
      );
      expect(lookup('"sun safety"').databases).toEqual(['sun safety']);
      expect(window('#x on sun')).toEqual([
        '2026-11-15T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
      ]);
    });

    it.each([
      ['type 2 diabetes last week', ['type 2 diabetes']],
      ['covid 19 vaccine', ['covid 19 vaccine']],
      ['stage 4 breast cancer, #bcsm', ['stage 4 breast cancer', '#bcsm']],
      ['covid 19 2024 booster', ['covid 19 2024 booster']],
      ['vaccine 1763000000 trial', ['vaccine 1763000000 trial']],
      ['grade 3 glioma', ['grade 3 glioma']],
      ['type 2 diabetes 2 weeks ago', ['type 2 diabetes']],
    ])('joins a number between two words of a phrase into it: %s', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it.each([
      ['4711', ['4711']],
      ['#hcsm 4711', ['#hcsm', '4711']],
      ['4711, #hcsm', ['4711', '#hcsm']],
      ['breast cancer, 4711', ['breast cancer', '4711']],
      ['cancer 4711', ['cancer', '4711']],
      ['4711 cancer', ['4711', 'cancer']],
      ['type 2 last week', ['type', '2']],
      ['covid 19 in Europe/Paris', ['covid', '19']],
      ['type 2, diabetes', ['type', '2', 'diabetes']],
      ['type 2 "diabetes"', ['type', '2', 'diabetes']],
      ['#hcsm 2 diabetes', ['#hcsm', '2', 'diabetes']],
      ['type 2 diabetes 4711 #x', ['type 2 diabetes', '4711', '#x']],
      ['"type 2" last week', ['type 2']],
    ])('keeps a number at the edge of a phrase or alone as an ID: %s', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it('counts the numbers split off a phrase towards the maximum, naming the one over it', () => {
      expect(
        parseLookup('#a #b breast cancer 4711', {
          now: saturday,
          zone: 'UTC',
          defaults: { maxDatabases: 3 },
        }),
      ).toMatchObject({ reason: 'too_many_databases', fragment: '4711' });
    });

    it('refuses "to" and "from" in an unquoted phrase and takes them in quotes', () => {
      expect(failure('access to care, tweets from doctors')).toMatchObject({
        reason: 'unrecognised',
        fragment: 'access to care',
      });
      expect(failure('#x letters from home').fragment).toBe('letters from home');
      expect(lookup('"access to care", "tweets from doctors"').databases).toEqual([
        'access to care',
        'tweets from doctors',
      ]);
    });

    it('allows the configured maximum and no more', () => {
      expect(lookup('#a #b #c', 'UTC', saturday, { maxDatabases: 3 }).databases).toHaveLength(3);
      expect(
        parseLookup('#a #b #c #d', { now: saturday, zone: 'UTC', defaults: { maxDatabases: 3 } }),
      ).toMatchObject({
        reason: 'too_many_databases',
        fragment: '#d',
      });
    });
  });

  describe('Slack input', () => {
    it.each([
      ['&lt;#C0123ABC|hcsm&gt;', ['#hcsm']],
      ['<#C0123ABC|hcsm> <#C0456|bcsm>', ['#hcsm', '#bcsm']],
      ['“patient safety”, ‘rare disease’', ['patient safety', 'rare disease']],
      ['"women’s health"', ["women's health"]],
      ['A&amp;E waits', ['A&E waits']],
      ['  #hcsm\u00a0\u00a0  #bcsm  ', ['#hcsm', '#bcsm']],
    ])('reads %s', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it('matches keywords in any case but keeps the case of names', () => {
      expect(lookup('Breast Cancer LAST WEEK In EUROPE/LONDON TOP 5')).toEqual({
        databases: ['Breast Cancer'],
        start: '2026-11-09T00:00:00+00:00',
        end: '2026-11-16T00:00:00+00:00',
        timezone: 'Europe/London',
        top: 5,
      });
    });
  });
});
