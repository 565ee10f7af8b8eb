// A uPlot line chart that follows its container's width; time on x in seconds, as uPlot expects, labelled in days.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

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
}

export const Chart = ({ title, times, span, series, height = 220, unit, tick = (value) => `${value} ${unit}` }: {
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
            points: { show: !s.bars && !s.dash && times.length < 40 },
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
  return <figure class="chart" aria-label={title} ref={box} />;
};
