import type { WallMaterial } from '../../../domain/wallGeometry';

/**
 * Wall colours and stroke widths (screen pixels) by material, apart from the layer (no Pixi here)
 * so the walls panel's swatches show what the canvas draws. Denser walls are darker and thicker,
 * glass light: the plan reads without a legend. Blueprint's GRAY3, VERMILION3, DARK_GRAY5,
 * CERULEAN4 and DARK_GRAY1.
 */
export const WALL_STYLES: Record<WallMaterial, { colour: number; widthPx: number }> = {
  drywall: { colour: 0x8f99a8, widthPx: 3 },
  brick: { colour: 0xc23a1c, widthPx: 5 },
  concrete: { colour: 0x404854, widthPx: 6 },
  glass: { colour: 0x68c1ee, widthPx: 3 },
  metal: { colour: 0x1c2127, widthPx: 4 },
};

/** A colour as CSS takes it. */
export function cssColour(colour: number): string {
  return `#${colour.toString(16).padStart(6, '0')}`;
}
