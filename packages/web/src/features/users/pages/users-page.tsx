import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import LogoutIcon from "@mui/icons-material/Logout";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { can, type User } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { SearchField } from "../../../components/ui/search-field";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { useInfiniteScroll } from "../../../components/ui/use-infinite-scroll";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { useDebounce } from "../../../lib/use-debounce";
import { useEndUserSessions } from "../../privacy";
import { ResetTwoFactorAction, useTwoFactorUsers } from "../../two-factor";
import { useDeleteUser } from "../api/delete-user";
import { useUsers } from "../api/get-users";
import { UserModal } from "../components/user-modal";

export default function UsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const debounced = useDebounce(search);
  const { data, isLoading, hasNextPage, isFetchingNextPage, fetchNextPage } = useUsers(debounced);
  const users = data?.pages.flatMap((p) => p.users) ?? [];
  const onScroll = useInfiniteScroll({ hasNextPage, isFetching: isFetchingNextPage, fetchNextPage });
  const [editing, setEditing] = useState<User | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);
  const remove = useDeleteUser();
  const [signingOut, setSigningOut] = useState<User | null>(null);
  const endSessions = useEndUserSessions();
  const { user: me } = useAuth();
  const withTwoFactor = new Set(useTwoFactorUsers(can(me, "twoFactor:reset")).data?.userIds ?? []);

  return (
    <PageContainer
      title={t("users.title")}
      onScroll={onScroll}
      actions={
        <>
          <SearchField value={search} onChange={setSearch} />
          <Button
            variant="contained"
            onClick={() => {
              setEditing(null);
              setModalOpen(true);
            }}
          >
            {t("users.buttons.add")}
          </Button>
        </>
      }
    >
      <UserModal open={modalOpen} onClose={() => setModalOpen(false)} user={editing} />
      <ConfirmDialog
        open={!!deleting}
        title={t("users.confirmationModal.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("users.toasts.deleted")) })}
      >
        {t("users.confirmationModal.deleteMessage")}
      </ConfirmDialog>
      <ConfirmDialog
        open={!!signingOut}
        title={t("sessions.endAllTitle", { name: signingOut?.name ?? "" })}
        onClose={() => setSigningOut(null)}
        onConfirm={() =>
          signingOut &&
          endSessions.mutate(signingOut.id, { onSuccess: ({ ended }) => toast.success(t("sessions.endedAll", { count: ended })) })
        }
      >
        {t("sessions.endAllMessage", { name: signingOut?.name ?? "" })}
      </ConfirmDialog>
      <Table size="small" aria-label={t("users.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("users.table.name")}</TableCell>
            <TableCell>{t("users.table.email")}</TableCell>
            <TableCell align="center">{t("users.table.profile")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("users.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((user) => (
            <TableRow key={user.id}>
              <TableCell>{user.name}</TableCell>
              <TableCell>{user.email}</TableCell>
              <TableCell align="center">{t(`userModal.form.profiles.${user.profile}`)}</TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: user.name })}
                  onClick={() => {
                    setEditing(user);
                    setModalOpen(true);
                  }}
                >
                  <Edit />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`${t("sessions.endAll")}: ${user.name}`}
                  title={t("sessions.endAll")}
                  onClick={() => setSigningOut(user)}
                >
                  <LogoutIcon />
                </IconButton>
                {withTwoFactor.has(user.id) && user.id !== me?.id && <ResetTwoFactorAction user={user} />}
                <IconButton
                  size="small"
                  aria-label={t("common.deleteItem", { name: user.name })}
                  onClick={() => setDeleting(user)}
                >
                  <DeleteOutline />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
          {(isLoading || isFetchingNextPage) && <TableLoadingRow columns={4} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
