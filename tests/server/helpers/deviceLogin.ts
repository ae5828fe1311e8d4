/** A gateway's MQTT login: the id and the secret of a device token of its site. */
export interface GatewayLogin {
  username: string;
  password: string;
}

/**
 * Creates a device token of the site through a running server's API (as an installer does in
 * the console) and returns it as the MQTT login the broker expects.
 */
export async function createGatewayLogin(
  apiBase: string,
  accessToken: string,
  siteId: number,
  label = 'Test gateway',
): Promise<GatewayLogin> {
  const response = await fetch(`${apiBase}/api/sites/${siteId}/device-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ label }),
  });
  const envelope = (await response.json()) as { data?: { id: number; token: string }; message?: string };
  if (!response.ok || !envelope.data)
    throw new Error(`creating a device token failed: ${response.status} ${envelope.message}`);
  return { username: String(envelope.data.id), password: envelope.data.token };
}
