import type { ReactNode } from 'react';

/** An import's counts side by side, each under its label. */
export function ImportFigures({ figures }: { figures: [label: string, value: ReactNode][] }) {
  return (
    <dl className="import-figures">
      {figures.map(([label, value]) => (
        <div key={label} className="import-figure">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
