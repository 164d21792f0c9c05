"use client";

import { Command } from "cmdk";
import { ChevronsUpDownIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "@/components/ui/cn";
import { DemoModelBadge } from "@/components/ui/demo-model-badge";
import { fieldClassName, Input } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { fetchCatalog, type ModelOption } from "./catalog-fetch";

/** A `{ provider, model }` reference. */
export interface ModelReference {
  /** Provider id. */
  provider: string;
  /** Model id. */
  model: string;
}

const keyOf = (reference: ModelReference) => `${reference.provider}::${reference.model}`;

/** Groups by provider, in catalog order. */
function byProvider(models: ModelOption[]): [string, ModelOption[]][] {
  const groups = new Map<string, ModelOption[]>();
  for (const model of models) groups.set(model.provider, [...(groups.get(model.provider) ?? []), model]);
  return [...groups];
}

/** "tools · JSON · 128k context" */
function capabilityText(model: ModelOption): string {
  const capabilities = model.capabilities;
  if (!capabilities) return "";
  return [
    capabilities.toolCalls ? "tools" : "no tools",
    capabilities.jsonMode ? "JSON" : null,
    capabilities.contextWindow ? `${Math.round(capabilities.contextWindow / 1000)}k context` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * Picks a model from `/api/models`: a searchable list grouped by provider, each model with what
 * it can do (tool calls, JSON mode, context window). When the default provider is answered by the
 * offline demo model, its group says so once instead of every entry. Free text when the catalog
 * is unavailable.
 */
export function ModelPicker({
  id,
  value,
  onChange,
}: {
  id?: string;
  value: ModelReference | undefined;
  onChange: (value: ModelReference) => void;
}) {
  const [models, setModels] = useState<ModelOption[] | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    void fetchCatalog<ModelOption>("/api/models").then(setModels);
  }, []);
  if (models && models.length === 0) {
    return (
      <div className="flex gap-2">
        <Input
          value={value?.provider ?? ""}
          placeholder="provider"
          aria-label="Provider"
          onChange={(event) => onChange({ provider: event.target.value, model: value?.model ?? "" })}
        />
        <Input
          id={id}
          value={value?.model ?? ""}
          placeholder="model"
          aria-label="Model"
          onChange={(event) => onChange({ provider: value?.provider ?? "default", model: event.target.value })}
        />
      </div>
    );
  }
  const current = value ? keyOf(value) : "";
  const selected = models?.find((model) => keyOf(model) === current);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <button
          id={id}
          type="button"
          className={cn(fieldClassName, "flex h-8 items-center justify-between gap-2 py-1 text-left")}
          data-testid="model-picker"
          data-value={current}
          aria-haspopup="listbox"
        >
          <span className={cn("min-w-0 flex-1 truncate", !value && "text-muted-foreground")}>
            {value ? (
              <>
                <span className="text-muted-foreground">{value.provider} / </span>
                {value.model}
              </>
            ) : (
              "Choose a model"
            )}
          </span>
          {selected?.isDemo && <DemoModelBadge>demo</DemoModelBadge>}
          <ChevronsUpDownIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent className="w-80 p-0" align="start" aria-label="Choose a model">
        <Command label="Models">
          <Command.Input
            placeholder="Search models…"
            aria-label="Search models"
            data-testid="model-picker-search"
            className="w-full border-b border-border bg-transparent px-3 py-2 text-sm outline-none placeholder:text-muted-foreground"
          />
          <Command.List className="max-h-72 overflow-y-auto p-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground">
            <Command.Empty className="px-3 py-4 text-sm text-muted-foreground">No model matches.</Command.Empty>
            {byProvider(models ?? []).map(([provider, options]) => (
              <Command.Group
                key={provider}
                heading={
                  options.every((option) => option.isDemo)
                    ? `${provider} · answered by the offline demo model`
                    : provider
                }
              >
                {options.map((option) => (
                  <Command.Item
                    key={keyOf(option)}
                    value={`${option.provider} ${option.model}`}
                    data-testid={`model-option-${option.provider}-${option.model}`}
                    onSelect={() => {
                      onChange({ provider: option.provider, model: option.model });
                      setOpen(false);
                    }}
                    className="flex cursor-default flex-col items-start rounded-sm px-2 py-1.5 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
                  >
                    <span className={keyOf(option) === current ? "font-semibold" : undefined}>{option.model}</span>
                    {option.capabilities && (
                      <span className="text-xs text-muted-foreground" data-testid="model-capabilities">
                        {capabilityText(option)}
                      </span>
                    )}
                  </Command.Item>
                ))}
              </Command.Group>
            ))}
          </Command.List>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
