import { describe, expect, it } from "vitest";
import { allowedOriginHosts, checkSameOrigin } from "@/lib/server/sameOrigin";

function post(headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:3000/api/datasets/upload?filename=x.jsonl", {
    method: "POST",
    headers: { host: "127.0.0.1:3000", "content-type": "text/plain", ...headers },
    body: "{}",
  });
}

describe("checkSameOrigin", () => {
  it("accepts the server's own pages and clients that are not browsers", () => {
    expect(checkSameOrigin(post({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }), [])).toEqual({
      ok: true,
    });
    expect(checkSameOrigin(post({ origin: "https://127.0.0.1:3000" }), [])).toEqual({ ok: true }); // TLS ended by a proxy
    expect(checkSameOrigin(post({}), [])).toEqual({ ok: true }); // curl, scripts
    expect(checkSameOrigin(post({ "sec-fetch-site": "none" }), [])).toEqual({ ok: true });
  });

  it("refuses another site, by Origin or by Sec-Fetch-Site, and says how to allow a proxy", () => {
    const evil = checkSameOrigin(post({ origin: "https://evil.example" }), []);
    expect(evil).toEqual({
      ok: false,
      message:
        "Cross-site request refused: it comes from https://evil.example, not from this server. Assay accepts changes only from its own pages; behind a proxy with another host name, list that origin in ASSAY_ALLOWED_ORIGINS.",
    });
    expect(checkSameOrigin(post({ "sec-fetch-site": "cross-site" }), []).ok).toBe(false);
    expect(checkSameOrigin(post({ "sec-fetch-site": "same-site", origin: "http://a.127.0.0.1:3000" }), []).ok).toBe(
      false,
    );
    expect(checkSameOrigin(post({ origin: "null" }), []).ok).toBe(false);
    // A forged Host cannot come from a browser page, but a matching Origin with a cross-site verdict is still refused.
    expect(checkSameOrigin(post({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "cross-site" }), []).ok).toBe(
      false,
    );
  });

  it("leaves an API key's requests without a cookie to the key, and checks them when they carry one", () => {
    const bearer = { authorization: "Bearer assay_abc", origin: "https://ci.example", "sec-fetch-site": "cross-site" };
    expect(checkSameOrigin(post(bearer), [])).toEqual({ ok: true });
    // With the browser's cookie it could be a page riding a session: checked as any other.
    expect(checkSameOrigin(post({ ...bearer, cookie: "assay.session_token=x" }), []).ok).toBe(false);
    // Another scheme is not an API key.
    expect(checkSameOrigin(post({ ...bearer, authorization: "Basic YTpi" }), []).ok).toBe(false);
  });

  it("accepts the allow-list, and the host a proxy forwarded for", () => {
    const allowed = allowedOriginHosts(" https://assay.example.com/ , *.corp.example ,");
    expect(allowed).toEqual(["assay.example.com", "*.corp.example"]);
    expect(
      checkSameOrigin(post({ origin: "https://assay.example.com", "sec-fetch-site": "cross-site" }), allowed).ok,
    ).toBe(true);
    expect(checkSameOrigin(post({ origin: "https://eval.corp.example" }), allowed).ok).toBe(true);
    expect(checkSameOrigin(post({ origin: "https://corp.example.evil" }), allowed).ok).toBe(false);
    expect(checkSameOrigin(post({ origin: "https://evilcorp.example" }), allowed).ok).toBe(false);
    expect(
      checkSameOrigin(post({ origin: "https://assay.internal", "x-forwarded-host": "assay.internal" }), []).ok,
    ).toBe(true);
  });
});
