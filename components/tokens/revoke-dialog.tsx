"use client";
// Asks before revoking a token, then revokes it by id and reads the list again.
import { useT } from "@/components/i18n/i18n-provider";
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
  const t = useT();
  return (
    <Dialog open={token !== null} onClose={onClose} title={token ? t("tokens.revokeTitle", { name: token.name }) : ""} returnFocusTo={returnFocusTo}>
      {/* keyed: each question starts without the last one's answer */}
      {token && <RevokeConfirm key={token.id} token={token} onCancel={onClose} onRevoked={onRevoked} />}
    </Dialog>
  );
}

function RevokeConfirm({ token, onCancel, onRevoked }: { token: ApiToken; onCancel: () => void; onRevoked: () => void }) {
  const t = useT();
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
      <p className="text-sm">{t("tokens.revokeBody")}</p>
      {revoke.error && <ErrorMessages error={revoke.error} />}
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel} disabled={revoke.isPending}>
          {t("common.cancel")}
        </Button>
        <Button variant="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
          {revoke.isPending ? t("tokens.revoking") : t("tokens.revoke")}
        </Button>
      </div>
    </div>
  );
}
