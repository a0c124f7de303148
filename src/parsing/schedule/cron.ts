/** The five cron fields of a schedule read from words, which the digest engine evaluates. */
import type { TimeOfDay } from '../time/ast.ts';
import { quarterMonths, type ScheduleDays } from './clause.ts';

/** The cron expression of a phrase schedule; `time` already defaulted. */
export function cronExpression(
  days: Exclude<ScheduleDays, { kind: 'cron' }>,
  time: TimeOfDay,
): string {
  const clock = `${time.minute} ${time.hour}`;
  switch (days.kind) {
    case 'daily':
      return `${clock} * * *`;
    case 'weekly': {
      const list = days.days ?? [1];
      const field = list.join(',') === '1,2,3,4,5' ? '1-5' : list.join(',');
      return list.length === 7 ? `${clock} * * *` : `${clock} * * ${field}`;
    }
    case 'monthly':
      return `${clock} ${days.day === 'last' ? 'L' : (days.day ?? 1)} ${days.quarterly === true ? quarterMonths : '*'} *`;
    case 'monthly-days':
      return `${clock} ${days.days.join(',')} * *`;
    case 'nth-weekday':
      return `${clock} * ${days.quarterly === true ? quarterMonths : '*'} ${days.weekday}#${days.nth === 'last' ? 'L' : days.nth}`;
    case 'hourly':
      return days.every === 1 ? '0 * * * *' : `0 */${days.every} * * *`;
  }
}
