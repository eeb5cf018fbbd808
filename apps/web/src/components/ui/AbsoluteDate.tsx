const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const fullFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** A moment as its date ("May 17, 2024"), with the exact date and time as its tooltip. */
export function AbsoluteDate({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={fullFormat.format(date)}>
      {dateFormat.format(date)}
    </time>
  );
}
