import { type Extension, Prec } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { oneDark } from "@uiw/react-codemirror";
import { useTheme } from "next-themes";

/**
 * The box around a CodeMirror editor in a form (the code node's script, prompt templates): the
 * field look of components/ui/input.tsx (border, focus ring, red when its field is invalid).
 */
export const CODE_MIRROR_BOX_CLASS_NAME =
  "nodrag nowheel overflow-hidden rounded-md border border-input bg-card shadow-xs transition-[border-color,box-shadow] focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30 group-data-[invalid=true]/field:border-destructive";

/**
 * CodeMirror on the design tokens. Its themes are style rules it injects itself (outside the
 * Tailwind layers, so utilities cannot override them): these rules use the tokens' CSS
 * variables, so one theme follows light and dark, and they take precedence over the one-dark
 * theme, whose syntax colours the dark mode keeps. Tooltips (the `{{` completion list, lint
 * messages) are themed here too: CodeMirror gives their container, even when it is in the body,
 * the editor's theme classes.
 */
function tokenTheme(dark: boolean): Extension {
  return Prec.highest(
    EditorView.theme(
      {
        "&": { backgroundColor: "var(--card)", color: "var(--foreground)", fontSize: "var(--text-xs)" },
        "&.cm-focused": { outline: "none" },
        // The container of tooltips placed in the body (`tooltips({ parent })`) carries the theme
        // classes too, so it got the editor's min-height and, in the body's flex column, took 72 px
        // per prompt field from the editor's height. It needs none: the tooltips inside are fixed.
        "&:not(.cm-editor)": { height: "0", minHeight: "0" },
        ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.5" },
        ".cm-gutters": {
          backgroundColor: "var(--muted)",
          color: "var(--muted-foreground)",
          borderRight: "1px solid var(--border)",
        },
        ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent) 50%, transparent)" },
        ".cm-activeLineGutter": { backgroundColor: "var(--accent)" },
        ".cm-placeholder": { color: "var(--muted-foreground)" },
        ".cm-tooltip": {
          backgroundColor: "var(--popover)",
          color: "var(--popover-foreground)",
          border: "1px solid var(--border)",
          borderRadius: "var(--radius-md)",
          boxShadow: "var(--shadow-md)",
          // Above dialogs (z-50): the completion list of a field in a dialog stays visible.
          zIndex: "60",
        },
        ".cm-tooltip.cm-tooltip-autocomplete": { padding: "2px" },
        ".cm-tooltip.cm-tooltip-autocomplete > ul": {
          fontFamily: "var(--font-mono)",
          fontSize: "var(--text-xs)",
          maxHeight: "220px",
        },
        ".cm-tooltip.cm-tooltip-autocomplete > ul > li": { padding: "3px 6px", borderRadius: "var(--radius-sm)" },
        ".cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]": {
          backgroundColor: "var(--accent)",
          color: "var(--accent-foreground)",
        },
        ".cm-completionDetail": { marginLeft: "12px", fontStyle: "normal", color: "var(--muted-foreground)" },
      },
      { dark },
    ),
  );
}

const LIGHT: Extension = tokenTheme(false);
const DARK: Extension = [oneDark, tokenTheme(true)];

/** The `theme` to hand `@uiw/react-codemirror`: the page's (next-themes) light or dark one. */
export function useCodeMirrorTheme(): Extension {
  const { resolvedTheme } = useTheme();
  return resolvedTheme === "dark" ? DARK : LIGHT;
}
