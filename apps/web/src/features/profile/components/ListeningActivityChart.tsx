import { useId } from 'react';
import { formatCount, formatPlays, formatWeek } from '../profileFormat';

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

/** Plays per week over the last year as a bar chart, with a text summary (docs/product.md §2, Public profile). */
export function ListeningActivityChart({ weeks }: { weeks: readonly WeeklyPlays[] }) {
  const titleId = useId();
  const summaryId = useId();
  const first = weeks[0];
  const last = weeks.at(-1);
  const max = Math.max(1, ...weeks.map((week) => week.plays));
  const width = Math.max(1, weeks.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP);

  return (
    <section className="card profile-activity" aria-labelledby={titleId}>
      <h2 id={titleId} className="card__title">
        Listening activity
      </h2>
      {first && last && (
        <figure className="profile-activity__figure">
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
            {weeks.map((week, index) => {
              const height = (week.plays / max) * CHART_HEIGHT;
              return (
                <rect
                  key={week.week}
                  className="profile-activity__bar"
                  x={index * (BAR_WIDTH + BAR_GAP)}
                  y={CHART_HEIGHT - height}
                  width={BAR_WIDTH}
                  height={height}
                >
                  <title>{`Week of ${formatWeek(week.week)}: ${formatPlays(week.plays)}`}</title>
                </rect>
              );
            })}
          </svg>
          <div className="profile-activity__axis" aria-hidden="true">
            <span>{formatWeek(first.week)}</span>
            <span>{formatWeek(last.week)}</span>
          </div>
          <figcaption id={summaryId} className="profile-activity__summary">
            {activitySummary(weeks)}
          </figcaption>
        </figure>
      )}
    </section>
  );
}
