/** The web first load in `npm run bench`: bundle sizes of the production build, then TTI in Chromium. */
import { type BundleReport, measureBundle, renderBundle } from "./web-bundle.js";
import { measureTti, renderTti, type TtiReport } from "./web-tti.js";

export interface WebReport {
  bundle: BundleReport;
  tti: TtiReport;
}

export async function measureWeb(root: string): Promise<WebReport> {
  const bundle = measureBundle(root);
  return { bundle, tti: await measureTti(root) };
}

export const renderWeb = (report: WebReport) =>
  ["### Web first load (production build, embedded server)", "", renderBundle(report.bundle), "", renderTti(report.tti), ""].join(
    "\n",
  );
