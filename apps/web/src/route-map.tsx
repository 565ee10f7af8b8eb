// A route drawn from its own points, with no map tiles (nothing leaves the app's origin): longitude scaled by the
// cosine of the route's mid latitude (equirectangular), then fitted to the drawing's box with its shape kept.
import type { WorkoutRoute } from "./types.ts";

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = 16;

/** Each segment's points as SVG `points` text in a WIDTH × HEIGHT box, north up; null for no positions at all. */
const project = (segments: WorkoutRoute["segments"]): { lines: string[]; start: [number, number]; end: [number, number] } | null => {
  const all = segments.flat();
  if (all.length < 2) return null;
  const lats = all.map(([lat]) => lat);
  const midLat = ((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180);
  const planar = segments.map((segment) => segment.map(([lat, lon]): [number, number] => [lon * Math.cos(midLat), -lat]));
  const xs = planar.flat().map(([x]) => x);
  const ys = planar.flat().map(([, y]) => y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  // A straight north-south line has no width: the larger extent sets the scale, and the line is centred.
  const fit = (room: number, extent: number) => (extent > 0 ? room / extent : Infinity);
  const scale = Math.min(fit(WIDTH - 2 * MARGIN, maxX - minX), fit(HEIGHT - 2 * MARGIN, maxY - minY));
  const fitted = Number.isFinite(scale) ? scale : 1;
  const offsetX = (WIDTH - (maxX - minX) * fitted) / 2;
  const offsetY = (HEIGHT - (maxY - minY) * fitted) / 2;
  const place = ([x, y]: [number, number]): [number, number] => [
    Math.round((offsetX + (x - minX) * fitted) * 10) / 10,
    Math.round((offsetY + (y - minY) * fitted) * 10) / 10,
  ];
  const placed = planar.map((segment) => segment.map(place));
  const flat = placed.flat();
  return { lines: placed.map((segment) => segment.map(([x, y]) => `${x},${y}`).join(" ")), start: flat[0]!, end: flat.at(-1)! };
};

export const RouteMap = ({ route, label }: { route: WorkoutRoute; label: string }) => {
  const drawn = project(route.segments);
  if (!drawn) return <p class="muted">No route: this workout has no recorded positions.</p>;
  return (
    <svg class="route" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      {drawn.lines.map((points, i) => <polyline key={i} class="route-line" points={points} />)}
      <circle class="route-start" cx={drawn.start[0]} cy={drawn.start[1]} r={6}><title>Start</title></circle>
      <circle class="route-end" cx={drawn.end[0]} cy={drawn.end[1]} r={6}><title>Finish</title></circle>
    </svg>
  );
};
