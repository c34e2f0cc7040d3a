/**
 * chart.js with only what the dashboard's charts draw (bar and line charts on category and linear
 * axes, tooltips, the legend): registered piece by piece instead of `chart.js/auto`, so the rest
 * of the library is left out of the bundle. Imported dynamically by ChartCanvas.tsx only: it is a
 * chunk of its own, fetched when a chart is first drawn (tools/size-budget.ts reports its size).
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

export { Chart };
