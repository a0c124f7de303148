import type { AnyBlock } from '@slack/types';

/**
 * Block Kit's documented limits, and the bot's own budgets where Slack's are vague: Slack refuses a
 * message that breaks any of them (`invalid_blocks`, `msg_blocks_too_long`), so renderers truncate
 * against these numbers and tests check every rendering with {@link checkBlockKitLimits}.
 */
export const blockKitLimits = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  /** Context text elements share the section text limit. */
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  blockId: 255,
  url: 3000,
  altText: 2000,
  /** Slack answers `msg_blocks_too_long` near 13,000 characters of block text; stay well below. */
  messageBlockText: 12_000,
  /** The notification fallback: Slack truncates at 40,000, but a notification is read in a glance. */
  fallbackText: 3000,
  viewTitle: 24,
  viewButton: 24,
  inputLabel: 2000,
  inputHint: 2000,
  placeholder: 150,
  callbackId: 255,
  privateMetadata: 3000,
} as const;

/** Messages allow 50 blocks and need a notification text; Home tabs and modals allow 100. */
export type Surface = 'message' | 'view';

/** A message (`text` + `blocks`) or a view (`blocks` + title, buttons, ids). */
export interface Renderable {
  readonly text?: string;
  readonly blocks: readonly AnyBlock[];
  readonly title?: TextLike;
  readonly submit?: TextLike;
  readonly close?: TextLike;
  readonly callback_id?: string;
  readonly private_metadata?: string;
}

interface TextLike {
  readonly type?: unknown;
  readonly text?: unknown;
}

/** A block as the checker reads it: every field optional, so any block (known or not) can be read. */
interface LooseBlock {
  readonly type: string;
  readonly block_id?: string;
  readonly text?: TextLike;
  readonly fields?: readonly TextLike[];
  readonly elements?: readonly LooseElement[];
  readonly accessory?: LooseElement;
  readonly element?: LooseElement;
  readonly label?: TextLike;
  readonly hint?: TextLike;
  readonly image_url?: string;
  readonly alt_text?: string;
}

interface LooseElement {
  readonly type?: unknown;
  readonly text?: unknown;
  readonly action_id?: string;
  readonly value?: string;
  readonly url?: string;
  readonly image_url?: string;
  readonly alt_text?: string;
  readonly placeholder?: TextLike;
  readonly elements?: readonly LooseElement[];
}

const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null && 'text' in value
      ? textOf((value as TextLike).text)
      : '';

/**
 * Every Block Kit limit `surface` breaks, as readable lines (`blocks[3].text: 3012 > 3000`); empty
 * when the message or view would be accepted. `text` is the message's notification fallback.
 */
export function checkBlockKitLimits(surface: Renderable, kind: Surface = 'message'): string[] {
  const problems: string[] = [];
  const limit = blockKitLimits;
  const over = (path: string, length: number, max: number): void => {
    if (length > max) problems.push(`${path}: ${length} > ${max}`);
  };
  const empty = (path: string, text: string): void => {
    if (text.trim().length === 0) problems.push(`${path}: empty`);
  };

  over(
    'blocks',
    surface.blocks.length,
    kind === 'message' ? limit.messageBlocks : limit.viewBlocks,
  );
  if (kind === 'message') {
    const fallback = surface.text ?? '';
    empty('text', fallback);
    over('text', fallback.length, limit.fallbackText);
  } else {
    for (const key of ['title', 'submit', 'close'] as const) {
      const value = surface[key];
      if (value !== undefined) {
        empty(key, textOf(value));
        over(key, textOf(value).length, key === 'title' ? limit.viewTitle : limit.viewButton);
      }
    }
    if (surface.callback_id !== undefined) {
      over('callback_id', surface.callback_id.length, limit.callbackId);
    }
    if (surface.private_metadata !== undefined) {
      over('private_metadata', surface.private_metadata.length, limit.privateMetadata);
    }
  }

  let total = 0;
  const count = (text: string): string => {
    total += text.length;
    return text;
  };

  const checkElement = (path: string, element: LooseElement): void => {
    if (element.action_id !== undefined)
      over(`${path}.action_id`, element.action_id.length, limit.actionId);
    if (element.type === 'button') {
      const label = count(textOf(element.text));
      empty(`${path}.text`, label);
      over(`${path}.text`, label.length, limit.buttonText);
      if (element.value !== undefined)
        over(`${path}.value`, element.value.length, limit.buttonValue);
      if (element.url !== undefined) over(`${path}.url`, element.url.length, limit.url);
    }
    if (element.type === 'image') {
      over(`${path}.image_url`, (element.image_url ?? '').length, limit.url);
      const alt = element.alt_text ?? '';
      empty(`${path}.alt_text`, alt);
      over(`${path}.alt_text`, alt.length, limit.altText);
    }
    if (element.placeholder !== undefined) {
      over(`${path}.placeholder`, textOf(element.placeholder).length, limit.placeholder);
    }
  };

  surface.blocks.forEach((raw, index) => {
    const block = raw as LooseBlock;
    const path = `blocks[${index}]`;
    if (block.block_id !== undefined)
      over(`${path}.block_id`, block.block_id.length, limit.blockId);
    switch (block.type) {
      case 'header': {
        const text = count(textOf(block.text));
        empty(`${path}.text`, text);
        over(`${path}.text`, text.length, limit.headerText);
        if (block.text?.type !== 'plain_text') problems.push(`${path}.text: must be plain_text`);
        break;
      }
      case 'section': {
        const fields = block.fields ?? [];
        if (block.text === undefined && fields.length === 0) problems.push(`${path}: no text`);
        if (block.text !== undefined) {
          const text = count(textOf(block.text));
          empty(`${path}.text`, text);
          over(`${path}.text`, text.length, limit.sectionText);
        }
        over(`${path}.fields`, fields.length, limit.sectionFields);
        fields.forEach((field, fieldIndex) => {
          const text = count(textOf(field));
          empty(`${path}.fields[${fieldIndex}]`, text);
          over(`${path}.fields[${fieldIndex}]`, text.length, limit.fieldText);
        });
        if (block.accessory !== undefined) checkElement(`${path}.accessory`, block.accessory);
        break;
      }
      case 'context': {
        const elements = block.elements ?? [];
        if (elements.length === 0) problems.push(`${path}.elements: empty`);
        over(`${path}.elements`, elements.length, limit.contextElements);
        elements.forEach((element, elementIndex) => {
          const elementPath = `${path}.elements[${elementIndex}]`;
          if (element.type === 'image') {
            checkElement(elementPath, element);
            return;
          }
          const text = count(textOf(element));
          empty(elementPath, text);
          over(elementPath, text.length, limit.contextText);
        });
        break;
      }
      case 'actions': {
        const elements = block.elements ?? [];
        if (elements.length === 0) problems.push(`${path}.elements: empty`);
        over(`${path}.elements`, elements.length, limit.actionsElements);
        elements.forEach((element, elementIndex) => {
          checkElement(`${path}.elements[${elementIndex}]`, element);
        });
        break;
      }
      case 'image': {
        over(`${path}.image_url`, (block.image_url ?? '').length, limit.url);
        const alt = block.alt_text ?? '';
        empty(`${path}.alt_text`, alt);
        over(`${path}.alt_text`, alt.length, limit.altText);
        break;
      }
      case 'input': {
        const label = textOf(block.label);
        empty(`${path}.label`, label);
        over(`${path}.label`, label.length, limit.inputLabel);
        if (block.hint !== undefined)
          over(`${path}.hint`, textOf(block.hint).length, limit.inputHint);
        if (block.element !== undefined) checkElement(`${path}.element`, block.element);
        if (kind === 'message') problems.push(`${path}: input blocks belong in views`);
        break;
      }
      default:
        break;
    }
  });

  if (kind === 'message') over('block text', total, limit.messageBlockText);
  return problems;
}

/**
 * Throws when `surface` breaks a limit. The renderers truncate against the same numbers, so a throw
 * here is a renderer bug: it fails with the exact limit named instead of Slack's opaque
 * `invalid_blocks` after the user has waited for the answer.
 */
export function assertWithinBlockKitLimits(surface: Renderable, kind: Surface = 'message'): void {
  const problems = checkBlockKitLimits(surface, kind);
  if (problems.length > 0) {
    throw new Error(`Rendered ${kind} breaks Block Kit limits: ${problems.join('; ')}`);
  }
}

/** {@link assertWithinBlockKitLimits} as a renderer's last step: returns `surface` once it fits. */
export function checked<T extends Renderable>(surface: T, kind: Surface = 'message'): T {
  assertWithinBlockKitLimits(surface, kind);
  return surface;
}
