import {applyDiscount} from "./pricing";

export interface Item {
  sku: string;
  priceCents: number;
  quantity: number;
  discountPercent?: number;
}

export class Cart {
  private items: Item[] = [];

  add(item: Item): void {
    const existing = this.items.find((i) => i.sku === item.sku);
    if (existing) {
      existing.quantity += item.quantity;
      return;
    }
    this.items.push({...item});
  }

  totalCents(): number {
    return this.items.reduce(
      (sum, i) => sum + applyDiscount(i.priceCents, i.discountPercent ?? 0) * i.quantity,
      0,
    );
  }

  clear(): void {
    this.items = [];
  }

  lines(): readonly Item[] {
    return this.items;
  }
}
