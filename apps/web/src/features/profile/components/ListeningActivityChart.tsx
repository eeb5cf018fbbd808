import { formatCount } from '@earshot/contract/english';
import { useId, useState, type KeyboardEvent } from 'react';
import { formatPlays, formatWeek } from '../profileFormat';

interface WeeklyPlays {
  /** The week's Monday, "YYYY-MM-DD" (UTC). */
  week: string;
  plays: number;
}

const BAR_WIDTH = 10;
const BAR_GAP = 4;
const CHART_HEIGHT = 120;

/** A sentence describing the chart for everyone, and as the chart's description. */
function activitySummary(weeks: readonly WeeklyPlays[]): string {
  const total = weeks.reduce((sum, week) => sum + week.plays, 0);
  if (total === 0) return `No plays in the last ${weeks.length} weeks.`;
  const busiest = weeks.reduce((best, week) => (week.plays > best.plays ? week : best));
  const average = Math.round(total / weeks.length);
  return (
    `${formatPlays(total)} in the last ${weeks.length} weeks, ${formatCount(average)} a week ` +
    `on average. Busiest: the week of ${formatWeek(busiest.week)}, with ${formatPlays(busiest.plays)}.`
  );
}

/** "Week of Mar 3, 2025: 12 plays". */
function weekText(week: WeeklyPlays): string {
  return `Week of ${formatWeek(week.week)}: ${formatPlays(week.plays)}`;
}

/** The week the arrow keys, Home and End move to from `index`, if the key is one of those. */
function steppedIndex(key: string, index: number, count: number): number | null {
  if (key === 'ArrowLeft' || key === 'ArrowDown') return Math.max(0, index - 1);
  if (key === 'ArrowRight' || key === 'ArrowUp') return Math.min(count - 1, index + 1);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * Plays per week over the last year as a bar chart with a plays axis and a text summary
 * (docs/product.md §2, Public profile). A week's plays are shown on tap (or hover, or the arrow
 * keys: the weeks are a slider), since a phone has no tooltips.
 */
export function ListeningActivityChart({ weeks }: { weeks: readonly WeeklyPlays[] }) {
  const titleId = useId();
  const summaryId = useId();
  const [chosen, setChosen] = useState<number | null>(null);
  const first = weeks[0];
  const last = weeks.at(-1);
  const max = Math.max(1, ...weeks.map((week) => week.plays));
  const width = Math.max(1, weeks.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP);
  // The latest week until another is chosen.
  const selected = Math.min(chosen ?? weeks.length - 1, weeks.length - 1);
  const selectedWeek = weeks[selected];

  function onKeyDown(event: KeyboardEvent) {
    const next = steppedIndex(event.key, selected, weeks.length);
    if (next === null) return;
    event.preventDefault();
    setChosen(next);
  }

  return (
    <section className="card profile-activity" aria-labelledby={titleId}>
      <h2 id={titleId} className="card__title">
        Listening activity
      </h2>
      {first && last && selectedWeek && (
        <figure className="profile-activity__figure">
          <div className="profile-activity__plot">
            <div className="profile-activity__plays-axis" aria-hidden="true">
              <span>{formatCount(max)}</span>
              <span>0</span>
            </div>
            <div className="profile-activity__area">
              <svg
                className="profile-activity__chart"
                viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
                preserveAspectRatio="none"
                role="img"
                aria-labelledby={titleId}
                aria-describedby={summaryId}
              >
                <line
                  className="profile-activity__baseline"
                  x1={0}
                  x2={width}
                  y1={CHART_HEIGHT - 0.5}
                  y2={CHART_HEIGHT - 0.5}
                />
                {/* Marks the chosen week even when it has no bar (no plays). */}
                <line
                  className="profile-activity__cursor"
                  x1={selected * (BAR_WIDTH + BAR_GAP) + BAR_WIDTH / 2}
                  x2={selected * (BAR_WIDTH + BAR_GAP) + BAR_WIDTH / 2}
                  y1={0}
                  y2={CHART_HEIGHT}
                />
                {weeks.map((week, index) => {
                  const height = (week.plays / max) * CHART_HEIGHT;
                  return (
                    <rect
                      key={week.week}
                      className={
                        index === selected
                          ? 'profile-activity__bar profile-activity__bar--selected'
                          : 'profile-activity__bar'
                      }
                      x={index * (BAR_WIDTH + BAR_GAP)}
                      y={CHART_HEIGHT - height}
                      width={BAR_WIDTH}
                      height={height}
                    >
                      <title>{weekText(week)}</title>
                    </rect>
                  );
                })}
              </svg>
              {/* One column per week over the bars: a tap anywhere in it picks the week. */}
              <div
                className="profile-activity__weeks"
                role="slider"
                tabIndex={0}
                aria-label="Plays per week"
                aria-valuemin={1}
                aria-valuemax={weeks.length}
                aria-valuenow={selected + 1}
                aria-valuetext={weekText(selectedWeek)}
                onKeyDown={onKeyDown}
              >
                {weeks.map((week, index) => (
                  <span
                    key={week.week}
                    data-week={week.week}
                    onPointerDown={() => setChosen(index)}
                    onPointerEnter={(event) => {
                      if (event.pointerType === 'mouse') setChosen(index);
                    }}
                  />
                ))}
              </div>
            </div>
            <div className="profile-activity__axis" aria-hidden="true">
              <span>{formatWeek(first.week)}</span>
              <span>{formatWeek(last.week)}</span>
            </div>
          </div>
          <p className="profile-activity__readout" aria-hidden="true">
            {weekText(selectedWeek)}
          </p>
          <figcaption id={summaryId} className="profile-activity__summary">
            {activitySummary(weeks)}
          </figcaption>
        </figure>
      )}
    </section>
  );
}
