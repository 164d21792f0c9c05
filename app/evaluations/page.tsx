import Link from "next/link";
import { EvaluationsHome } from "@/components/evaluations/evaluations-home";

/** Datasets and evaluation runs: "did my change make the agent better?" */
export default function EvaluationsPage() {
  return (
    <main className="page page-wide">
      <header className="page-header">
        <h1>Evaluations</h1>
        <Link href="/workflows" className="button">
          Workflows
        </Link>
      </header>
      <EvaluationsHome />
    </main>
  );
}
