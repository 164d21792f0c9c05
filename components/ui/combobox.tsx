"use client";

import { Command } from "cmdk";
import { CheckIcon, ChevronsUpDownIcon } from "lucide-react";
import { useId, useState } from "react";
import { cn } from "./cn";
import { fieldClassName } from "./input";
import { Popover, PopoverContent, PopoverTrigger } from "./popover";

const ITEM =
  "flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground";

/** One choice of a {@link Combobox}. */
export interface ComboboxOption {
  /** What `onChange` receives. */
  value: string;
  /** What the list and the button show. */
  label: string;
  /** A second, quieter line (a key's prefix, a version's note). */
  hint?: string;
}

/**
 * A labelled (label above), searchable single choice (Radix popover + cmdk list), with an "any" entry that
 * clears it. Keyboard: Tab to the button, Enter or Space opens, typing filters, arrows move,
 * Enter picks, Escape closes. A value that is not among the options (a link made elsewhere) is
 * shown as it is, so a filter from the URL never silently disappears.
 */
export function Combobox({
  label,
  value,
  options,
  onChange,
  anyLabel = "any",
  placeholder = "Search…",
  emptyText = "Nothing matches.",
  disabled,
  testId,
}: {
  label: string;
  value: string;
  options: readonly ComboboxOption[];
  onChange: (value: string) => void;
  anyLabel?: string;
  placeholder?: string;
  emptyText?: string;
  disabled?: boolean;
  /** `data-testid` of the button; the search box and options derive theirs from it. */
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const labelId = useId();
  const valueId = useId();
  const selected = options.find((option) => option.value === value);
  const shown = value ? (selected?.label ?? value) : anyLabel;
  const pick = (next: string) => {
    onChange(next);
    setOpen(false);
  };
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <span id={labelId} className="text-xs font-semibold text-foreground">
        {label}
      </span>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <button
            type="button"
            className={cn(fieldClassName, "flex h-8 items-center justify-between gap-2 py-1 text-left")}
            data-testid={testId}
            data-value={value}
            aria-labelledby={`${labelId} ${valueId}`}
            aria-haspopup="listbox"
            disabled={disabled}
          >
            <span id={valueId} className={cn("truncate", !value && "text-muted-foreground")}>
              {shown}
            </span>
            <ChevronsUpDownIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          </button>
        </PopoverTrigger>
        <PopoverContent className="w-72 p-0" align="start" aria-label={label}>
          <Command label={label}>
            <Command.Input
              placeholder={placeholder}
              aria-label={`Search ${label.toLowerCase()}`}
              data-testid={`${testId}-search`}
              className="w-full border-b border-border bg-transparent px-3 py-2 text-sm outline-none placeholder:text-muted-foreground"
            />
            <Command.List className="max-h-72 overflow-y-auto p-1">
              <Command.Empty className="px-3 py-4 text-sm text-muted-foreground">{emptyText}</Command.Empty>
              <Command.Item
                value={`__any__ ${anyLabel}`}
                data-testid={`${testId}-any`}
                onSelect={() => pick("")}
                className={ITEM}
              >
                <CheckIcon aria-hidden className={cn("size-4", value ? "invisible" : "")} />
                <span className="text-muted-foreground">{anyLabel}</span>
              </Command.Item>
              {options.map((option) => (
                <Command.Item
                  key={option.value}
                  value={`${option.label} ${option.hint ?? ""} ${option.value}`}
                  data-testid={`${testId}-option`}
                  data-id={option.value}
                  onSelect={() => pick(option.value)}
                  className={ITEM}
                >
                  <CheckIcon aria-hidden className={cn("size-4", option.value === value ? "" : "invisible")} />
                  <span className="flex min-w-0 flex-col">
                    <span className="truncate">{option.label}</span>
                    {option.hint && <span className="truncate text-xs text-muted-foreground">{option.hint}</span>}
                  </span>
                </Command.Item>
              ))}
            </Command.List>
          </Command>
        </PopoverContent>
      </Popover>
    </div>
  );
}
