import type { ImageElement } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { context, section, withoutImages } from '../../src/render/blocks.ts';

const picture: ImageElement = {
  type: 'image',
  image_url: 'https://example.com/a.png',
  alt_text: 'Profile picture of A',
};

describe('withoutImages', () => {
  it('drops section pictures and image blocks and keeps everything else in order', () => {
    const message = {
      text: 'fallback',
      blocks: [
        section('*1.* A', picture),
        { type: 'image' as const, image_url: 'https://example.com/b.png', alt_text: 'B' },
        context('note'),
      ],
    };
    expect(withoutImages(message)).toEqual({
      text: 'fallback',
      blocks: [section('*1.* A'), context('note')],
    });
  });

  it('gives back the very message when it has no picture', () => {
    const message = { text: 'plain', blocks: [section('text'), context('note')] };
    expect(withoutImages(message)).toBe(message);
  });
});
