"use client";

import { useEffect, useState } from "react";
import { NativeSelect } from "@/components/ui/native-select";
import { fetchCatalog } from "./catalog-fetch";

/** A stored HTTP credential as `/api/credentials` lists it (never the secret). */
interface CredentialOption {
  name: string;
  type: string;
  detail: string;
}

/** Chooses the HTTP credential an http node sends (Settings → Credentials), or none. */
export function CredentialSelect({
  id,
  value,
  onChange,
}: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const [credentials, setCredentials] = useState<CredentialOption[] | null>(null);
  useEffect(() => {
    void fetchCatalog<CredentialOption>("/api/credentials").then(setCredentials);
  }, []);
  const names = new Set((credentials ?? []).map((credential) => credential.name));
  return (
    <>
      <NativeSelect
        id={id}
        value={value}
        data-testid="credential-select"
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">None</option>
        {(credentials ?? []).map((credential) => (
          <option key={credential.name} value={credential.name}>
            {credential.name} ({credential.type}
            {credential.detail ? `: ${credential.detail}` : ""})
          </option>
        ))}
        {value !== "" && credentials !== null && !names.has(value) && <option value={value}>{value} (missing)</option>}
      </NativeSelect>
      <a
        className="w-fit text-xs text-muted-foreground underline-offset-2 hover:text-foreground hover:underline"
        href="/settings/credentials"
        target="_blank"
        rel="noreferrer"
      >
        Manage credentials
      </a>
    </>
  );
}
