import { Card } from "@/components/ui/card";

/** Settings → Export: a plain link, so the browser streams the file to disk as the server writes it. */
export function ExportCard() {
  return (
    <Card title="Export your data">
      <p className="mb-3 text-sm text-slate-600">
        One JSON file of everything your account holds: profile, plan, whitelist, usage by day, tracked URLs and their history,
        and bulk jobs with their results. It never holds your API key or password. Scripts can fetch the same file from{" "}
        <code>GET /v2/account/export</code> with your key.
      </p>
      <a
        href="/api/dashboard/account/export"
        download
        className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        Export my data
      </a>
    </Card>
  );
}
