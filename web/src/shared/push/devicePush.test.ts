import { describe, expect, it } from "vitest";
import { base64UrlBytes, suggestedName } from "./devicePush";

describe("base64UrlBytes", () => {
  it("reads the unpadded url-safe alphabet", () => {
    expect([...base64UrlBytes("-_8")]).toEqual([0xfb, 0xff]);
    expect([...base64UrlBytes("AQID")]).toEqual([1, 2, 3]);
  });

  it("gives the 65 bytes of an uncompressed P-256 point", () => {
    const key = "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U";
    const bytes = base64UrlBytes(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });
});

describe("suggestedName", () => {
  it("names the browser and the system", () => {
    expect(
      suggestedName(
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
      ),
    ).toBe("Chrome on Android");
    expect(
      suggestedName(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari on iOS");
    expect(suggestedName("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe(
      "Firefox on Linux",
    );
    expect(suggestedName("curl/8")).toBe("Browser");
  });
});
