// Compliant: a test in lib/ may import app/ or components/ (to check every route, say).
import { panel } from "../../components/run-panel";

export const checked = panel;
