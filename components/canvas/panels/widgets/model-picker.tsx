"use client";

import { useEffect, useState } from "react";
import { fetchCatalog, type ModelOption } from "./catalog-fetch";

/** A `{ provider, model }` reference. */
export interface ModelReference {
  /** Provider id. */
  provider: string;
  /** Model id. */
  model: string;
}

/** Picks a model from `/api/models`; free text when the catalog is unavailable. */
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
  useEffect(() => {
    void fetchCatalog<ModelOption>("/api/models").then(setModels);
  }, []);
  const current = value ? `${value.provider}::${value.model}` : "";
  if (models && models.length === 0) {
    return (
      <div className="row">
        <input
          className="input"
          value={value?.provider ?? ""}
          placeholder="provider"
          onChange={(event) => onChange({ provider: event.target.value, model: value?.model ?? "" })}
        />
        <input
          id={id}
          className="input"
          value={value?.model ?? ""}
          placeholder="model"
          onChange={(event) => onChange({ provider: value?.provider ?? "default", model: event.target.value })}
        />
      </div>
    );
  }
  const listed = models?.some((model) => `${model.provider}::${model.model}` === current);
  return (
    <select
      id={id}
      className="input"
      value={current}
      data-testid="model-picker"
      onChange={(event) => {
        const [provider, ...rest] = event.target.value.split("::");
        onChange({ provider, model: rest.join("::") });
      }}
    >
      {!listed && value && <option value={current}>{`${value.provider} / ${value.model}`}</option>}
      {(models ?? []).map((model) => (
        <option key={`${model.provider}::${model.model}`} value={`${model.provider}::${model.model}`}>
          {model.label}
          {model.isDemo ? " (demo, offline)" : ""}
        </option>
      ))}
    </select>
  );
}
