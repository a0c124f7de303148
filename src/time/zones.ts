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

class MemoisedZone extends Zone {
  readonly #inner: IANAZone;
  readonly #hours = new Map<number, number>();
  readonly #names = new Map<string, string | null>();

  constructor(inner: IANAZone) {
    super();
    this.#inner = inner;
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
    if (!this.#steadyHour(hour)) return this.#inner.offsetName(ts, options);
    const key = `${hour}\u0000${options.format ?? ''}\u0000${options.locale ?? ''}`;
    let name = this.#names.get(key);
    if (name === undefined) {
      name = this.#inner.offsetName(ts, options);
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
    return this.#steadyHour(hour) ? (this.#hours.get(hour) as number) : this.#inner.offset(ts);
  }

  override equals(other: Zone): boolean {
    return other.type === 'iana' && other.name === this.name;
  }

  /** True when the whole hour has one offset, which is then cached. */
  #steadyHour(hour: number): boolean {
    if (this.#hours.has(hour)) return true;
    const first = this.#inner.offset(hour * hourMs);
    const last = this.#inner.offset((hour + 1) * hourMs - 1);
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
