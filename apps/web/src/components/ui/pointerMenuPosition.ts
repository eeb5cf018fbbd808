import { CONTEXT_MENU_HEIGHT_PX, CONTEXT_MENU_WIDTH_PX } from '../../lib/constants';

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The size a pointer menu is kept within (docs/product.md §9: 180 x 120). */
export const POINTER_MENU_BOUNDS: Size = {
  width: CONTEXT_MENU_WIDTH_PX,
  height: CONTEXT_MENU_HEIGHT_PX,
};

/**
 * The top-left corner of a menu opened at `pointer`: the pointer itself, moved left and up just
 * enough for a box of `bounds` to fit inside `viewport`, and never past its top-left edge.
 */
export function clampMenuPosition(
  pointer: Point,
  viewport: Size,
  bounds: Size = POINTER_MENU_BOUNDS,
): Point {
  return {
    x: Math.max(0, Math.min(pointer.x, viewport.width - bounds.width)),
    y: Math.max(0, Math.min(pointer.y, viewport.height - bounds.height)),
  };
}
