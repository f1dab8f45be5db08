import { isoWeekday } from "../../app/features/plans/plan-schedule";
import { addDays } from "../../app/features/visits/visit-dates";

/** The first weekday (Monday to Friday) at least `daysAhead` days after `today` ("YYYY-MM-DD"). */
export function weekdayAhead(today: string, daysAhead: number): string {
  let day = addDays(today, daysAhead);
  while (isoWeekday(day) > 5) day = addDays(day, 1);
  return day;
}
