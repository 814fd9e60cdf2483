"use client";
// Asks before revoking a token, then revokes it by id and reads the list again.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useToken } from "@/components/token/token-provider";
import { queryKeys } from "@/lib/api-client";
import { revokeToken, tokenKeys, type ApiToken } from "@/lib/api-client/tokens";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorMessages } from "./error-messages";

export function RevokeDialog({
  token,
  onClose,
  onRevoked,
  returnFocusTo,
}: {
  token: ApiToken | null;
  onClose: () => void;
  onRevoked: () => void;
  returnFocusTo?: string;
}) {
  return (
    <Dialog open={token !== null} onClose={onClose} title={token ? `Revoke “${token.name}”?` : ""} returnFocusTo={returnFocusTo}>
      {/* keyed: each question starts without the last one's answer */}
      {token && <RevokeConfirm key={token.id} token={token} onCancel={onClose} onRevoked={onRevoked} />}
    </Dialog>
  );
}

function RevokeConfirm({ token, onCancel, onRevoked }: { token: ApiToken; onCancel: () => void; onRevoked: () => void }) {
  const { session } = useToken();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeToken(session, token.id),
    onSuccess: async () => {
      onRevoked();
      // the admin may have revoked the very token in use: ask who it is again too
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tokenKeys.list(session) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.whoami(session) }),
      ]);
    },
  });

  return (
    <div className="space-y-3">
      <p className="text-sm">Programs using it will lose access at once.</p>
      {revoke.error && <ErrorMessages error={revoke.error} />}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel} disabled={revoke.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
          {revoke.isPending ? "Revoking…" : "Revoke"}
        </Button>
      </div>
    </div>
  );
}
