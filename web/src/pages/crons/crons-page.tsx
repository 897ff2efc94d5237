import { PageHeader } from "../../components/page-header.js";

// TODO(crons): replace with the cron list and editor once the cron GraphQL API (issue 5) is merged.
export function CronsPage() {
  return (
    <div className="page">
      <PageHeader title="Crons" />
      <div className="coming-soon">
        <p className="empty-title">Coming soon</p>
        <p>Scheduled runs will be listed and edited here once the cron API is available in GraphQL.</p>
      </div>
    </div>
  );
}
