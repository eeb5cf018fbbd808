import { Tooltip } from 'radix-ui';
import { useState } from 'react';
import { InfoIcon } from './icons';
import './infoTooltip.css';

interface InfoTooltipProps {
  /** What the tooltip is about: the button's accessible name is "About {subject}". */
  subject: string;
  text: string;
}

/**
 * An info button whose tooltip (Radix) explains what it sits next to: on hover and focus, and on
 * a tap too, since touch screens have no hover.
 */
export function InfoTooltip({ subject, text }: InfoTooltipProps) {
  const [open, setOpen] = useState(false);
  return (
    <Tooltip.Provider delayDuration={200}>
      <Tooltip.Root open={open} onOpenChange={setOpen}>
        <Tooltip.Trigger asChild>
          <button
            type="button"
            className="info-tooltip__button"
            aria-label={`About ${subject}`}
            onClick={() => setOpen((wasOpen) => !wasOpen)}
          >
            <InfoIcon size={18} />
          </button>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            className="info-tooltip"
            side="bottom"
            sideOffset={6}
            collisionPadding={12}
          >
            {text}
            <Tooltip.Arrow className="info-tooltip__arrow" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
