import type { QdrantFigures } from "./qdrant.js";

const kib = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`);

/** A Markdown table of the Qdrant adapter's figures. */
export function qdrantTable(figures: QdrantFigures): string {
  const rows = figures.operations.map((op) => {
    const r = op.requests;
    const range = r.min === r.max ? "" : ` (${r.min}-${r.max})`;
    const top = Object.entries(op.byEndpoint)
      .slice(0, 3)
      .map(([e, n]) => `${e} ${n}`)
      .join("; ");
    return `| ${op.operation} | ${op.calls} | ${r.mean}${range} | ${kib(op.bytesSentMean)} | ${kib(op.bytesReceivedMean)} | ${op.wallMs.p50.toFixed(1)} / ${op.wallMs.p95.toFixed(1)} | ${top} |`;
  });
  return [
    `Qdrant adapter on the protocol double (Qdrant ${figures.serverVersion} API): ${figures.workload}; first connect ${figures.connectRequests} requests`,
    "",
    "| operation | calls | requests per call (min-max) | sent per call | received per call | wall ms p50 / p95 (double) | most frequent requests per call |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}
