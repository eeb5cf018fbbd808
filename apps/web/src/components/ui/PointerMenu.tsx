import { DropdownMenu } from 'radix-ui';
import type { ReactNode } from 'react';
import type { Point } from './pointerMenuPosition';
import './pointerMenu.css';

/** Where a pointer menu opens, and what gets the focus back when it closes. */
export interface PointerMenuTarget {
  /** The menu's top-left corner, already clamped inside the viewport. */
  position: Point;
  returnFocusTo: HTMLElement | null;
}

interface PointerMenuProps {
  target: PointerMenuTarget;
  open: boolean;
  onClose: () => void;
  /** The menu's accessible name. */
  label: string;
  children: ReactNode;
}

/**
 * An accessible menu (Radix) opened at a point of the screen rather than under a button: the
 * context menu of a right click or a long press. Open it with `usePointerMenuTrigger`.
 */
export function PointerMenu({ target, open, onClose, label, children }: PointerMenuProps) {
  return (
    <DropdownMenu.Root
      // Not modal and not portaled: the page under it stays exposed (no aria-hidden over
      // focusable content) and the menu stays inside its landmark (axe-core).
      modal={false}
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DropdownMenu.Trigger asChild>
        <span
          className="pointer-menu__anchor"
          style={{ left: target.position.x, top: target.position.y }}
          aria-hidden="true"
        />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        className="menu pointer-menu"
        side="bottom"
        align="start"
        sideOffset={2}
        alignOffset={2}
        // Named by `label`, not by the invisible anchor.
        aria-labelledby={undefined}
        aria-label={label}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          target.returnFocusTo?.focus();
        }}
      >
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

interface PointerMenuItemProps {
  disabled?: boolean;
  onSelect?: () => void;
  children: ReactNode;
}

/** One action of a `PointerMenu`. */
export function PointerMenuItem({ disabled = false, onSelect, children }: PointerMenuItemProps) {
  return (
    <DropdownMenu.Item className="menu__item" disabled={disabled} onSelect={onSelect}>
      {children}
    </DropdownMenu.Item>
  );
}
