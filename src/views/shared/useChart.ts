import { Chart, type ChartConfiguration, type ChartType, type DefaultDataPoint } from 'chart.js';
import { type DependencyList, type RefObject, useEffect, useRef } from 'react';

interface ChartRecipe<TType extends ChartType, TData, TLabel> {
  /** The chart's shape: axes, direction, tooltips. Read when a chart is made. */
  configure(): ChartConfiguration<TType, TData, TLabel>;
  /** Puts the current data into the chart and updates it. */
  fill(chart: Chart<TType, TData, TLabel>): void;
}

/**
 * One Chart.js chart on the returned canvas: made again only when a value in `rebuildOn` changes (a
 * new kind or direction: Chart.js cannot mirror a chart in place), filled as soon as it is made,
 * and given new data in place when a value in `fillOn` changes. The recipe is read at its latest.
 */
export function useChart<TType extends ChartType, TData = DefaultDataPoint<TType>, TLabel = unknown>(
  recipe: ChartRecipe<TType, TData, TLabel>,
  rebuildOn: DependencyList,
  fillOn: DependencyList,
): RefObject<HTMLCanvasElement | null> {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<TType, TData, TLabel> | null>(null);
  const latest = useRef(recipe);
  latest.current = recipe;

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const created = new Chart(element, latest.current.configure());
    latest.current.fill(created);
    chart.current = created;
    return () => {
      created.destroy();
      chart.current = null;
    };
  }, [...rebuildOn]);

  useEffect(() => {
    if (chart.current) latest.current.fill(chart.current);
  }, [...fillOn]);

  return canvas;
}
