import Link from "next/link";

/** Settings home: one card per section. */
export default function SettingsPage() {
  return (
    <>
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-cards">
        <Link href="/settings/tools" className="settings-card" data-testid="settings-tools-link">
          <h2>Tools</h2>
          <p className="muted">Import OpenAPI tool sets and connect MCP servers for this workspace.</p>
        </Link>
        <Link href="/settings/providers" className="settings-card" data-testid="settings-providers-link">
          <h2>Model providers</h2>
          <p className="muted">Add OpenAI-compatible endpoints (OpenAI, Azure, Ollama, vLLM, …) and their models.</p>
        </Link>
        <Link href="/settings/credentials" className="settings-card" data-testid="settings-credentials-link">
          <h2>Credentials</h2>
          <p className="muted">Tokens and API keys the HTTP request node sends, stored encrypted.</p>
        </Link>
        <Link href="/settings/api-keys" className="settings-card" data-testid="settings-api-keys-link">
          <h2>API keys</h2>
          <p className="muted">Create and revoke the keys that call published workflows over HTTP.</p>
        </Link>
        <Link href="/settings/members" className="settings-card" data-testid="settings-members-link">
          <h2>Members</h2>
          <p className="muted">Add people to the workspace as owners, admins, editors or viewers.</p>
        </Link>
      </div>
    </>
  );
}
