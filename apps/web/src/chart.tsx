// A uPlot line chart that follows its container's width; time on x in seconds, as uPlot expects, labelled in days.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { round } from "./ui.tsx";

const DAY_S = 86_400;
/** Tick spacings the x axis may choose: whole days and weeks, never hours (readings are a few a day at most). */
const DAY_INCREMENTS = [1, 2, 7, 14, 28, 56, 91, 182, 364].map((days) => days * DAY_S);
const dayLabel = (seconds: number) => new Date(seconds * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short" });

export interface Series {
  label: string;
  values: (number | null)[];
  color: string;
  dash?: number[];
  bars?: boolean;
  /** Points alone, no line: the readings a smoothed line runs through. */
  dots?: boolean;
}

const dayOf = (seconds: number) => new Date(seconds * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });

/** The chart's numbers as a table, opened on request: what the canvas shows, for a screen reader or a closer look. */
const Numbers = ({ title, times, series, tick }: { title: string; times: number[]; series: Series[]; tick: (value: number) => string }) => (
  <details class="numbers">
    <summary>The numbers</summary>
    {/* Focusable, so the keyboard scrolls it too. */}
    <div class="scroll" tabIndex={0} role="region" aria-label={`${title}: the numbers`}>
      <table>
        <thead><tr><th scope="col">Day</th>{series.map((s) => <th key={s.label} scope="col">{s.label}</th>)}</tr></thead>
        <tbody>
          {times.map((time, row) => (
            <tr key={time}>
              <th scope="row">{dayOf(time)}</th>
              {series.map((s) => {
                const value = s.values[row];
                return <td key={s.label}>{value === null || value === undefined ? "" : tick(round(value, 2))}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </details>
);

export const Chart = ({ title, times, span, series, height = 220, unit, tick = (value) => `${value} ${unit}`, numbers = false }: {
  title: string;
  /** Unix seconds, ascending. */
  times: number[];
  /** The period shown, in Unix seconds: a single reading still sits in its place on a 90-day axis. */
  span: [number, number];
  series: Series[];
  height?: number;
  unit: string;
  /** A y tick's label; by default the number and the unit. */
  tick?: (value: number) => string;
  /** Offer the numbers as a table below the chart. */
  numbers?: boolean;
}) => {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || times.length === 0) return;
    const bars = uPlot.paths.bars?.({ size: [0.6, 40] });
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height,
        legend: { show: true },
        cursor: { points: { size: 6 } },
        // Bars (amounts per day) stand on zero; a weight line is scaled to its readings.
        scales: { x: { time: true, range: () => span }, ...(series.some((s) => s.bars) ? { y: { range: (_u, _min, max) => [0, max * 1.1] } } : {}) },
        axes: [{ incrs: DAY_INCREMENTS, values: (_u, ticks) => ticks.map(dayLabel) }, { values: (_u, ticks) => ticks.map(tick), size: 76 }],
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            ...(s.dash ? { dash: s.dash } : {}),
            ...(s.bars && bars ? { paths: bars, fill: `${s.color}55` } : {}),
            ...(s.dots ? { paths: () => null } : {}),
            // A line shows its points when they are few, unless dots of their own stand beside it.
            points: { show: s.dots || (!s.bars && !s.dash && !series.some((other) => other.dots) && times.length < 40), ...(s.dots ? { size: 6, fill: s.color } : {}) },
            spanGaps: true,
          })),
        ],
      },
      [times, ...series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, span, series, height, tick]);
  if (times.length === 0) return <p class="muted">Nothing to chart yet.</p>;
  const figure = <figure class="chart" aria-label={title} ref={box} />;
  return numbers ? <>{figure}<Numbers title={title} times={times} series={series} tick={tick} /></> : figure;
};
