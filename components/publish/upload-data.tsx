"use client";
// Upload data: placeholder until the upload dialog lands.
export function UploadData({ onDone }: { onDone: (resourceId: string) => void }) {
  void onDone;
  return null;
}
