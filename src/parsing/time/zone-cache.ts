/**
 * Offsets of an IANA zone, memoised. luxon asks `Intl` for the offset of every instant it builds,
 * and that one call is most of the cost of parsing a command; offsets only change at DST and
 * similar transitions, so an hour whose first and last second share an offset shares it
 * throughout (no zone changes its offset twice within an hour).
 */
import { FixedOffsetZone, IANAZone, Zone } from 'luxon';

const hourMs = 3_600_000;
const maxCachedHours = 50_000;

class MemoisedZone extends Zone {
  readonly #inner: IANAZone;
  readonly #hours = new Map<number, number>();

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

  override offsetName(ts: number, options: Parameters<Zone['offsetName']>[1]): string | null {
    return this.#inner.offsetName(ts, options);
  }

  override formatOffset(ts: number, format: Parameters<Zone['formatOffset']>[1]): string {
    return FixedOffsetZone.instance(this.offset(ts)).formatOffset(ts, format);
  }

  override offset(ts: number): number {
    const hour = Math.floor(ts / hourMs);
    const known = this.#hours.get(hour);
    if (known !== undefined) return known;
    const first = this.#inner.offset(hour * hourMs);
    const last = this.#inner.offset((hour + 1) * hourMs - 1);
    if (first !== last) return this.#inner.offset(ts);
    if (this.#hours.size >= maxCachedHours) this.#hours.clear();
    this.#hours.set(hour, first);
    return first;
  }

  override equals(other: Zone): boolean {
    return other.type === 'iana' && other.name === this.name;
  }
}

const zones = new Map<string, Zone>();

/**
 * The luxon zone to build instants in, for a name `resolveZone` returned. UTC uses luxon's fixed
 * zone, which needs no lookup.
 */
export function zoneFor(name: string): Zone {
  let zone = zones.get(name);
  if (zone === undefined) {
    zone = name === 'UTC' ? FixedOffsetZone.utcInstance : new MemoisedZone(IANAZone.create(name));
    zones.set(name, zone);
  }
  return zone;
}
