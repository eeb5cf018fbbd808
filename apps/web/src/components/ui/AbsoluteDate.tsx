import { mediumDate, mediumDateTime } from '@earshot/contract/english';

/** A moment as its date ("May 17, 2024"), with the exact date and time as its tooltip. */
export function AbsoluteDate({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={mediumDateTime(date)}>
      {mediumDate(date)}
    </time>
  );
}
