/**
 * IANA zones for luxon, memoised. luxon asks `Intl` for a zone's offset (and its short name) for
 * every instant it builds or formats, and those calls dominate the CPU cost of parsing a command
 * and rendering an answer. Offsets only change at DST and similar transitions, so an hour whose
 * first and last millisecond share an offset shares it throughout (no zone changes its offset
 * twice within an hour); hours that contain a transition are always asked afresh, so the result
 * is exact.
 */
import { FixedOffsetZone, IANAZone, Zone, type ZoneOffsetOptions } from 'luxon';

const hourMs = 3_600_000;
const maxCachedHours = 50_000;
/** The largest instant a JavaScript Date holds. */
const maxDateMs = 8.64e15;
/** `GMT`, `GMT-04:00`, `GMT+05:53:28`: the end of a date formatted with `timeZoneName: 'longOffset'`. */
const longOffset = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

class MemoisedZone extends Zone {
  readonly #inner: IANAZone;
  readonly #hours = new Map<number, number>();
  readonly #names = new Map<string, string | null>();
  /** One formatter per name format and locale: making one is most of the cost of a name. */
  readonly #nameFormats = new Map<string, Intl.DateTimeFormat>();

  readonly #offsetFormat: Intl.DateTimeFormat | undefined;

  constructor(inner: IANAZone) {
    super();
    this.#inner = inner;
    this.#offsetFormat = inner.isValid
      ? new Intl.DateTimeFormat('en-US', {
          timeZone: inner.name,
          timeZoneName: 'longOffset',
          year: 'numeric',
        })
      : undefined;
  }

  override get type(): string {
    return 'iana';
  }

  override get name(): string {
    return this.#inner.name;
  }

  override get isUniversal(): boolean {
    return false;
  }

  override get isValid(): boolean {
    return this.#inner.isValid;
  }

  override offsetName(ts: number, options: ZoneOffsetOptions): string | null {
    const hour = Math.floor(ts / hourMs);
    if (!this.#steadyHour(hour)) return this.#nameAt(ts, options);
    const key = `${hour}\u0000${options.format ?? ''}\u0000${options.locale ?? ''}`;
    let name = this.#names.get(key);
    if (name === undefined) {
      name = this.#nameAt(ts, options);
      if (this.#names.size >= maxCachedHours) this.#names.clear();
      this.#names.set(key, name);
    }
    return name;
  }

  override formatOffset(ts: number, format: Parameters<Zone['formatOffset']>[1]): string {
    return FixedOffsetZone.instance(this.offset(ts)).formatOffset(ts, format);
  }

  override offset(ts: number): number {
    const hour = Math.floor(ts / hourMs);
    return this.#steadyHour(hour) ? (this.#hours.get(hour) as number) : this.#offsetAt(ts);
  }

  override equals(other: Zone): boolean {
    return other.type === 'iana' && other.name === this.name;
  }

  /**
   * The offset at `ts`, read from one formatted offset (`GMT-04:56:02`) instead of luxon's
   * formatToParts of seven fields, at a fifth of the cost: the same minutes, as luxon computes
   * them from whole seconds. Anything else (no Intl zone, an instant no Date holds) asks luxon.
   */
  #offsetAt(ts: number): number {
    const format = this.#offsetFormat;
    if (format === undefined || !(Math.abs(ts) <= maxDateMs)) return this.#inner.offset(ts);
    const match = longOffset.exec(format.format(ts));
    if (match === null) return this.#inner.offset(ts);
    if (match[1] === undefined) return 0;
    const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4] ?? 0);
    return ((match[1] === '-' ? -seconds : seconds) * 1000) / 60_000;
  }

  /**
   * The zone's name at `ts` as luxon's IANAZone gives it (the same formatter options, the same
   * part), from a formatter kept for the next call where luxon makes a new one each time.
   */
  #nameAt(ts: number, options: ZoneOffsetOptions): string | null {
    if (!this.#inner.isValid) return this.#inner.offsetName(ts, options);
    const key = `${options.format ?? ''}\u0000${options.locale ?? ''}`;
    let format = this.#nameFormats.get(key);
    if (format === undefined) {
      format = new Intl.DateTimeFormat(options.locale, {
        timeZoneName: options.format,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: this.#inner.name,
      });
      this.#nameFormats.set(key, format);
    }
    const part = format
      .formatToParts(new Date(ts))
      .find((candidate) => candidate.type.toLowerCase() === 'timezonename');
    return part ? part.value : null;
  }

  /** True when the whole hour has one offset, which is then cached. */
  #steadyHour(hour: number): boolean {
    if (this.#hours.has(hour)) return true;
    const first = this.#offsetAt(hour * hourMs);
    const last = this.#offsetAt((hour + 1) * hourMs - 1);
    if (first !== last) return false;
    if (this.#hours.size >= maxCachedHours) this.#hours.clear();
    this.#hours.set(hour, first);
    return true;
  }
}

const zones = new Map<string, Zone>();

/**
 * The luxon zone for an IANA name (or `UTC`) to build and format instants in. Pass it where luxon
 * takes `{ zone }`; names luxon does not know give an invalid zone, as luxon's own would.
 */
export function zoneFor(name: string): Zone {
  let zone = zones.get(name);
  if (zone === undefined) {
    zone = name === 'UTC' ? FixedOffsetZone.utcInstance : new MemoisedZone(IANAZone.create(name));
    zones.set(name, zone);
  }
  return zone;
}
