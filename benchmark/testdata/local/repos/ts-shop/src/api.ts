export interface ChargeResult {
  id: string;
  status: "succeeded" | "failed";
}

/** charge asks the payment service to charge the card on file. */
export async function charge(customerId: string, amountCents: number): Promise<ChargeResult> {
  const res = await fetch("/api/charges", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({customerId, amountCents}),
  });
  if (!res.ok) {
    throw new Error(`charge failed: HTTP ${res.status}`);
  }
  return (await res.json()) as ChargeResult;
}
