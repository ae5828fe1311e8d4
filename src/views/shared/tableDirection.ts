/**
 * Blueprint lays a table's virtual cells out left to right only: read right to left, the columns
 * stand reversed. The columns of each direction in the order they stand from the left, and their widths.
 */
export function columnsFromLeft<C extends { width: number }>(columns: readonly C[]) {
  const order = { ltr: columns, rtl: [...columns].reverse() } as const;
  return {
    columns: order as Record<'ltr' | 'rtl', readonly C[]>,
    widths: {
      ltr: order.ltr.map((column) => column.width),
      rtl: order.rtl.map((column) => column.width),
    },
  };
}
