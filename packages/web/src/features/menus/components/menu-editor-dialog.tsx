import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Connection, MenuTreeInput } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../lib/error-handler";
import { toast } from "../../../lib/toast";
import { useMenu, useMenuAgents, useSaveMenu } from "../api/menus-api";
import { MenuLevelFields } from "./menu-level-fields";
import { type OptionEditing, OptionList } from "./menu-option-editor";
import { levelPreview, moveOption, newOption, removeOption, startingTree, updateOption, updateOptions } from "./menu-tree";

/**
 * Issue 23 §3: the connection's menu tree (docs/menus.md). A connection without one starts from its
 * queues' one-level menu; each level shows the text the customer gets.
 */
export function MenuEditorDialog({ connection, onClose }: { connection: Connection | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const open = !!connection;
  const whatsappId = connection?.id ?? 0;
  const { data, isLoading } = useMenu(connection?.id);
  const save = useSaveMenu(whatsappId);
  const agents = useMenuAgents(open);
  const [tree, setTree] = useState<MenuTreeInput | undefined>();

  useEffect(() => {
    if (!open || isLoading || !data || !connection) return;
    setTree(data.menu ?? startingTree(connection.queues));
  }, [open, isLoading, data, connection]);
  useEffect(() => {
    if (!open) setTree(undefined);
  }, [open]);

  const editing: OptionEditing = {
    whatsappId,
    agents: agents.data ?? [],
    update: (path, patch) => setTree((current) => current && updateOption(current, path, patch)),
    remove: (path) => setTree((current) => current && removeOption(current, path)),
    move: (path, by) => setTree((current) => current && moveOption(current, path, by)),
    add: (parent) => setTree((current) => current && updateOptions(current, parent, (options) => [...options, newOption()])),
  };

  const submit = async (menu: MenuTreeInput | null) => {
    try {
      await save.mutateAsync(menu);
      toast.success(t("menus.toasts.saved"));
      onClose();
    } catch (error) {
      toastError(error);
    }
  };

  const greeting = tree?.message ?? connection?.greetingMessage ?? "";
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="menu-editor-title">
      <DialogTitle id="menu-editor-title">{t("menus.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t("menus.intro")}
        </Typography>
        {tree && (
          <>
            <TextField
              fullWidth
              multiline
              size="small"
              label={t("menus.fields.rootMessage")}
              helperText={t("menus.fields.rootMessageHelp")}
              value={tree.message ?? ""}
              onChange={(e) => setTree({ ...tree, message: e.target.value === "" ? null : e.target.value })}
            />
            <MenuLevelFields level={tree} onChange={(patch) => setTree({ ...tree, ...patch })} />
            <Typography variant="overline" component="div" sx={{ mt: 2 }}>
              {t("menus.preview")}
            </Typography>
            <Typography
              component="pre"
              variant="body2"
              data-testid="menu-preview"
              sx={{ p: 1, bgcolor: "action.hover", whiteSpace: "pre-wrap", m: 0 }}
            >
              {levelPreview(greeting, tree.options)}
            </Typography>
            <OptionList options={tree.options ?? []} parent={[]} editing={editing} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        {data?.menu && (
          <Button color="warning" onClick={() => void submit(null)} disabled={save.isPending}>
            {t("menus.buttons.removeTree")}
          </Button>
        )}
        <Button onClick={onClose}>{t("menus.buttons.cancel")}</Button>
        <Button variant="contained" onClick={() => tree && void submit(tree)} disabled={!tree || save.isPending}>
          {t("menus.buttons.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
