import {
  BracesIcon,
  HistoryIcon,
  KeyRoundIcon,
  LockKeyholeIcon,
  type LucideIcon,
  ScrollTextIcon,
  ServerIcon,
  UsersIcon,
  WrenchIcon,
} from "lucide-react";

/** A settings section: where it lives, what it is called, its icon and what it is for. */
export interface SettingsSection {
  href: string;
  label: string;
  icon: LucideIcon;
  description: string;
  /** Test id of the nav entry (kept from the earlier top nav). */
  navTestId?: string;
  /** Test id of the card on the settings home page. */
  cardTestId: string;
}

/** Every settings section, in nav order (the home page's cards use the same list). */
export const SETTINGS_SECTIONS: SettingsSection[] = [
  {
    href: "/settings/tools",
    label: "Tools",
    icon: WrenchIcon,
    description: "Import OpenAPI tool sets and connect MCP servers for this workspace.",
    navTestId: "settings-nav-tools",
    cardTestId: "settings-tools-link",
  },
  {
    href: "/settings/providers",
    label: "Model providers",
    icon: ServerIcon,
    description: "Add OpenAI-compatible endpoints (OpenAI, Azure, Ollama, vLLM, …) and their models.",
    navTestId: "settings-nav-providers",
    cardTestId: "settings-providers-link",
  },
  {
    href: "/settings/credentials",
    label: "Credentials",
    icon: LockKeyholeIcon,
    description: "Tokens and API keys the HTTP request node sends, stored encrypted.",
    navTestId: "settings-nav-credentials",
    cardTestId: "settings-credentials-link",
  },
  {
    href: "/settings/variables",
    label: "Environment variables",
    icon: BracesIcon,
    description: "Non-secret settings every workflow reads as {{env.NAME}}.",
    navTestId: "settings-nav-variables",
    cardTestId: "settings-variables-link",
  },
  {
    href: "/settings/api-keys",
    label: "API keys",
    icon: KeyRoundIcon,
    description: "Create and revoke the keys that call published workflows over HTTP.",
    navTestId: "settings-nav-api-keys",
    cardTestId: "settings-api-keys-link",
  },
  {
    href: "/settings/members",
    label: "Members",
    icon: UsersIcon,
    description: "Add people to the workspace as owners, admins, editors or viewers.",
    navTestId: "settings-nav-members",
    cardTestId: "settings-members-link",
  },
  {
    href: "/settings/retention",
    label: "Run retention",
    icon: HistoryIcon,
    description: "How long run history is kept (age and count), and what the last prune removed.",
    navTestId: "settings-nav-retention",
    cardTestId: "settings-retention-link",
  },
  {
    href: "/settings/audit",
    label: "Audit log",
    icon: ScrollTextIcon,
    description: "Who changed members, keys, credentials, published workflows and settings, when and from where.",
    navTestId: "settings-nav-audit",
    cardTestId: "settings-audit-link",
  },
];
