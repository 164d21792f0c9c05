import { describe, expect, it } from "vitest";
import { checkServerEnvironment } from "../services/environment";
import { assertMetricsAccess, readMetricsConfig } from "./metrics-access";
import { pingRedis } from "./redis-ping";

describe("metrics settings", () => {
  it("are off by default, with the worker server on loopback", () => {
    expect(readMetricsConfig({})).toEqual({ enabled: false, token: undefined, port: undefined, host: "127.0.0.1" });
    expect(
      readMetricsConfig({
        TRELLIS_METRICS: "TRUE",
        TRELLIS_METRICS_TOKEN: "t",
        TRELLIS_METRICS_PORT: "9464",
        TRELLIS_METRICS_HOST: "0.0.0.0",
      }),
    ).toEqual({ enabled: true, token: "t", port: 9464, host: "0.0.0.0" });
  });

  it("stop the server at start with the setting's name when a value is unusable", () => {
    expect(() => checkServerEnvironment({ TRELLIS_METRICS: "yes" })).toThrow(
      'TRELLIS_METRICS: "yes" must be true or false',
    );
    expect(() => checkServerEnvironment({ TRELLIS_METRICS_PORT: "70000" })).toThrow(
      expect.objectContaining({ code: "invalid_configuration", setting: "TRELLIS_METRICS_PORT" }),
    );
    expect(() => checkServerEnvironment({ TRELLIS_METRICS: "true", TRELLIS_METRICS_PORT: "9464" })).not.toThrow();
  });

  it("let every scrape in without a token, and only the exact bearer token with one", () => {
    expect(() => assertMetricsAccess(null, undefined)).not.toThrow();
    expect(() => assertMetricsAccess(null, "secret")).toThrow(expect.objectContaining({ code: "unauthorized" }));
    expect(() => assertMetricsAccess("Basic c2VjcmV0", "secret")).toThrow();
    expect(() => assertMetricsAccess("Bearer secre", "secret")).toThrow();
    expect(() => assertMetricsAccess("Bearer secret", "secret")).not.toThrow();
    expect(() => assertMetricsAccess("bearer  secret ", "secret")).not.toThrow();
  });
});

describe("pingRedis", () => {
  it("refuses a URL that is not redis:// or rediss://", async () => {
    await expect(pingRedis("http://127.0.0.1:6379")).rejects.toMatchObject({ code: "redis_unavailable" });
    await expect(pingRedis("not a url")).rejects.toThrow("REDIS_URL is not a URL");
  });
});
