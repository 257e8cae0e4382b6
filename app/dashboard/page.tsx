export default function OverviewPage() {
  return <h1 className="text-xl font-semibold">Overview</h1>;
}
