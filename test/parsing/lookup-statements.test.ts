import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';

const context = { now: new Date('2026-11-28T04:42:27Z'), zone: 'Australia/Sydney' };

function read(text: string) {
  const request = parseLookup(text, context);
  if (request instanceof ParseError) throw new Error(`${text}: ${request.message}`);
  return request;
}

describe('parseLookup: a statement after a semicolon', () => {
  it.each([
    ['#hcsm; DROP TABLE digests;--', ['#hcsm'], ['DROP TABLE digests;--']],
    ['#hcsm last week; DROP TABLE digests;--', ['#hcsm'], ['DROP TABLE digests;--']],
    ['"health equity"; delete everything --now', ['health equity'], ['delete everything --now']],
  ])('leaves %j out whole, reading nothing in it', (text, databases, leftOut) => {
    const request = read(text);
    expect(request.databases).toEqual(databases);
    expect(request.leftOut).toEqual(leftOut);
    // `TABLE` there is no way of showing the answer.
    expect(request.presentation).toBeUndefined();
  });

  it.each([
    ['#hcsm; last week', ['#hcsm']],
    ['#hcsm; #bcsm yesterday', ['#hcsm', '#bcsm']],
    ['#hcsm; breast cancer', ['#hcsm', 'breast cancer']],
  ])('reads %j as a comma would separate it', (text, databases) => {
    const request = read(text);
    expect(request.databases).toEqual(databases);
    expect(request.leftOut).toBeUndefined();
  });
});

describe('parseLookup: quotes people type', () => {
  it.each([
    ["'rare disease' last month", ['rare disease']],
    ["#hcsm 'people's voices' last month", ['#hcsm', "people's voices"]],
    ["#hcsm 'ASCO'", ['#hcsm', 'ASCO']],
    ['group "Patient Advocates" last month', ['group:Patient Advocates']],
    ['#hcsm group  "Rare Diseases"', ['#hcsm', 'group:Rare Diseases']],
  ])('reads %j as its phrase or group', (text, databases) => {
    expect(read(text).databases).toEqual(databases);
  });

  it("keeps an apostrophe that closes no phrase a word's ('90s)", () => {
    expect(read("'90s nostalgia last week").databases).toEqual(["'90s nostalgia"]);
  });
});
