import { useEffect, useId, useRef, useState } from 'react';
import './copyLinkField.css';

interface CopyLinkFieldProps {
  /** The visible label of the link. */
  label: string;
  url: string;
  /** The button's text after a successful copy, e.g. "Copied!". */
  copiedText: string;
  /** How long the button says `copiedText` (docs/product.md §9). */
  copiedMs: number;
  copyText?: string;
}

/**
 * A read-only link with a copy button. After copying, the button says `copiedText` for
 * `copiedMs`; when the clipboard is unavailable the link is selected for copying by hand.
 */
export function CopyLinkField({
  label,
  url,
  copiedText,
  copiedMs,
  copyText = 'Copy link',
}: CopyLinkFieldProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  async function copy() {
    clearTimeout(resetTimer.current);
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      setCopied(false);
      setFailed(true);
      inputRef.current?.select();
      return;
    }
    setFailed(false);
    setCopied(true);
    resetTimer.current = setTimeout(() => setCopied(false), copiedMs);
  }

  return (
    <div className="copy-link">
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="copy-link__row">
        <input
          ref={inputRef}
          id={inputId}
          className="text-input copy-link__input"
          type="url"
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button button--secondary" onClick={() => void copy()}>
          <span aria-live="polite">{copied ? copiedText : copyText}</span>
        </button>
      </div>
      {failed && (
        <p className="copy-link__error" role="alert">
          Couldn&apos;t copy automatically. The link is selected: copy it by hand.
        </p>
      )}
    </div>
  );
}
