"use client";
// The header's link to the Tokens page: placeholder until the page lands.
export function AdminNav() {
  return null;
}
