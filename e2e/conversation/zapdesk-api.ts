import { type APIRequestContext, expect } from "@playwright/test";

/** The admin side of the journey, through the real HTTP API (setup and the simulated customer's phone). */
export class ZapdeskApi {
  private token = "";

  constructor(private readonly request: APIRequestContext) {}

  private get headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  async login(email: string, password: string): Promise<void> {
    const res = await this.request.post("/api/auth/login", { data: { email, password } });
    expect(res.status(), await res.text()).toBe(200);
    this.token = (await res.json()).token;
  }

  async post<T>(path: string, data: unknown, status = [200, 201]): Promise<T> {
    const res = await this.request.post(`/api${path}`, { data, headers: this.headers });
    expect(status, `${path}: ${await res.text()}`).toContain(res.status());
    return (await res.json()) as T;
  }

  async get<T>(path: string): Promise<T> {
    const res = await this.request.get(`/api${path}`, { headers: this.headers });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return (await res.json()) as T;
  }

  createQueue(name: string, color: string) {
    return this.post<{ id: number; name: string }>("/queue", { name, color, greetingMessage: "" });
  }

  createUser(name: string, email: string, password: string, queueIds: number[]) {
    return this.post<{ id: number }>("/users", { name, email, password, profile: "user", queueIds });
  }

  /** A simulator connection, waited on until it reports CONNECTED (~1.5 s). */
  async createSimulator(queueIds: number[]): Promise<number> {
    const connection = await this.post<{ id: number }>("/whatsapp", {
      name: `Simulator ${Date.now()}`,
      provider: "simulator",
      queueIds,
      greetingMessage: "",
      farewellMessage: "",
      isDefault: true,
    });
    await expect
      .poll(async () => (await this.get<{ status: string }>(`/whatsapp/${connection.id}`)).status, { timeout: 15_000 })
      .toBe("CONNECTED");
    return connection.id;
  }

  customerWrites(whatsappId: number, input: { from: string; name?: string; body?: string }) {
    return this.post<{ id: string }>(`/simulator/${whatsappId}/inbound`, input);
  }

  async phoneReceived(whatsappId: number, to: string) {
    const { messages } = await this.get<{
      messages: { wid: string; body: string; media?: { mimetype: string; size: number; asVoice: boolean } }[];
    }>(`/simulator/${whatsappId}/outbound?to=${to}`);
    return messages;
  }

  ack(whatsappId: number, id: string, ack: number) {
    return this.post(`/simulator/${whatsappId}/ack`, { id, ack });
  }
}

/** A 1×1 PNG: the smallest image the server's type sniffing accepts as image/png. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
