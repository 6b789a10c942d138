import AddIcon from "@mui/icons-material/Add";
import ArrowDownward from "@mui/icons-material/ArrowDownward";
import ArrowUpward from "@mui/icons-material/ArrowUpward";
import AttachFile from "@mui/icons-material/AttachFile";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { MENU_LIMITS, MENU_TARGETS, type MenuOptionInput, type User } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { toastError } from "../../../lib/error-handler";
import { uploadMenuMedia } from "../api/menus-api";
import { MenuLevelFields, QueuePick } from "./menu-level-fields";
import { levelPreview, newOption, type OptionPath } from "./menu-tree";

export interface OptionEditing {
  whatsappId: number;
  agents: User[];
  update(path: OptionPath, patch: Partial<MenuOptionInput>): void;
  remove(path: OptionPath): void;
  move(path: OptionPath, by: -1 | 1): void;
  add(parent: OptionPath): void;
}

/** The options of one level, numbered as the customer sees them; "Add option" under them. */
export function OptionList({
  options,
  parent,
  editing,
}: {
  options: MenuOptionInput[];
  parent: OptionPath;
  editing: OptionEditing;
}) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} sx={{ mt: 1 }}>
      {options.map((option, index) => (
        <OptionEditor
          // biome-ignore lint/suspicious/noArrayIndexKey: options have no id until saved; the position is their identity here.
          key={index}
          option={option}
          path={[...parent, index]}
          count={options.length}
          editing={editing}
        />
      ))}
      <Box>
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={options.length >= MENU_LIMITS.options}
          onClick={() => editing.add(parent)}
        >
          {t("menus.buttons.addOption")}
        </Button>
      </Box>
    </Stack>
  );
}

function OptionEditor({
  option,
  path,
  count,
  editing,
}: {
  option: MenuOptionInput;
  path: OptionPath;
  count: number;
  editing: OptionEditing;
}) {
  const { t } = useTranslation();
  const index = path[path.length - 1];
  const number = path.map((i) => i + 1).join(".");
  const set = (patch: Partial<MenuOptionInput>) => editing.update(path, patch);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      set({ media: await uploadMenuMedia(editing.whatsappId, file) });
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 1.5, ml: path.length > 1 ? 2 : 0 }} data-testid={`menu-option-${number}`}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Typography variant="subtitle2" sx={{ minWidth: 32 }}>
          *{index + 1}*
        </Typography>
        <TextField
          size="small"
          label={t("menus.fields.label")}
          value={option.label}
          onChange={(e) => set({ label: e.target.value })}
          slotProps={{ htmlInput: { "aria-label": t("menus.fields.labelOf", { n: number }) } }}
        />
        <TextField
          select
          size="small"
          label={t("menus.fields.target")}
          value={option.target}
          onChange={(e) => {
            const target = e.target.value as MenuOptionInput["target"];
            set({ target, ...(target === "menu" && !option.options?.length ? { options: [newOption()] } : {}) });
          }}
          sx={{ minWidth: 160 }}
        >
          {MENU_TARGETS.map((target) => (
            <MenuItem key={target} value={target} disabled={target === "menu" && path.length >= MENU_LIMITS.depth}>
              {t(`menus.targets.${target}`)}
            </MenuItem>
          ))}
        </TextField>
        {(option.target === "queue" || option.target === "agent") && (
          <QueuePick label={t("menus.fields.queue")} value={option.queueId} onChange={(id) => set({ queueId: id })} />
        )}
        {option.target === "agent" && (
          <TextField
            select
            size="small"
            label={t("menus.fields.agent")}
            value={option.userId ?? ""}
            onChange={(e) => set({ userId: e.target.value === "" ? null : Number(e.target.value) })}
            sx={{ minWidth: 160 }}
          >
            {editing.agents.map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Box sx={{ flexGrow: 1 }} />
        <IconButton
          size="small"
          aria-label={t("menus.buttons.up", { n: number })}
          disabled={index === 0}
          onClick={() => editing.move(path, -1)}
        >
          <ArrowUpward fontSize="small" />
        </IconButton>
        <IconButton
          size="small"
          aria-label={t("menus.buttons.down", { n: number })}
          disabled={index === count - 1}
          onClick={() => editing.move(path, 1)}
        >
          <ArrowDownward fontSize="small" />
        </IconButton>
        <IconButton size="small" aria-label={t("menus.buttons.remove", { n: number })} onClick={() => editing.remove(path)}>
          <DeleteOutline fontSize="small" />
        </IconButton>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: "center" }}>
        <TextField
          size="small"
          fullWidth
          multiline
          label={option.target === "menu" ? t("menus.fields.header") : t("menus.fields.message")}
          value={option.message ?? ""}
          onChange={(e) => set({ message: e.target.value === "" ? null : e.target.value })}
        />
        {option.media ? (
          <Chip size="small" label={option.media.name} onDelete={() => set({ media: null })} />
        ) : (
          <Button size="small" component="label" startIcon={<AttachFile />}>
            {t("menus.buttons.attach")}
            <input hidden type="file" onChange={(e) => void onFile(e.target.files?.[0])} />
          </Button>
        )}
      </Stack>
      {option.target === "menu" && (
        <Box sx={{ mt: 1 }}>
          <MenuLevelFields level={option} onChange={set} />
          <Typography component="pre" variant="body2" sx={{ mt: 1, p: 1, bgcolor: "action.hover", whiteSpace: "pre-wrap" }}>
            {levelPreview(option.message ?? option.label, option.options)}
          </Typography>
          <OptionList options={option.options ?? []} parent={path} editing={editing} />
        </Box>
      )}
    </Paper>
  );
}
