// Breaks server-only-guard (no `import "server-only"`) and lib-not-app-or-components.
import { panel } from "../../components/run-panel";

export const runStep = () => panel;
