import { DISCOVER_TIME_FILTER_DAYS } from '../../../lib/constants';
import { timeFilterLabel, type OnRepeatDays } from '../discoverSections';

interface OnRepeatTimeFilterProps {
  days: OnRepeatDays;
  onChange: (days: OnRepeatDays) => void;
}

const optionValue = (days: OnRepeatDays) => (days === null ? 'all' : String(days));

/** Like Your On-Repeat's window: All time, 1 Year, 3 Months, 1 Month or 1 Week. */
export function OnRepeatTimeFilter({ days, onChange }: OnRepeatTimeFilterProps) {
  return (
    <select
      className="discover-section__filter"
      aria-label="Time range"
      value={optionValue(days)}
      onChange={(event) => {
        const chosen = DISCOVER_TIME_FILTER_DAYS.find(
          (option) => optionValue(option) === event.target.value,
        );
        if (chosen !== undefined) onChange(chosen);
      }}
    >
      {DISCOVER_TIME_FILTER_DAYS.map((option) => (
        <option key={optionValue(option)} value={optionValue(option)}>
          {timeFilterLabel(option)}
        </option>
      ))}
    </select>
  );
}
