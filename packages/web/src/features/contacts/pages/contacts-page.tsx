import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import MergeType from "@mui/icons-material/MergeType";
import PrivacyTip from "@mui/icons-material/PrivacyTipOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { type Contact, can, isSearchTooShort } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PhoneNumber } from "../../../components/phone-number";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { SearchField } from "../../../components/ui/search-field";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { useInfiniteScroll } from "../../../components/ui/use-infinite-scroll";
import { visuallyHidden } from "../../../components/ui/visually-hidden";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { useAnyConnectionCan, useDefaultConnectionCan } from "../../../lib/queries/use-connections";
import { toast } from "../../../lib/toast";
import { useDebounce } from "../../../lib/use-debounce";
import { ContactOwnerField, OwnerFilter, type OwnerFilterValue, useContactsPage } from "../../contact-owner";
import { ScheduleButton } from "../../schedules";
import { useDeleteContact } from "../api/delete-contact";
import { contactsToCsv, downloadCsv, fetchAllContacts } from "../api/export-contacts";
import { useImportContacts } from "../api/import-contacts";
import { useStartTicket } from "../api/start-ticket";
import { ContactDataDialog } from "../components/contact-data-dialog";
import { ContactModal } from "../components/contact-modal";
import { MergeContactDialog } from "../components/merge-contact-dialog";

export default function ContactsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const [search, setSearch] = useState("");
  const typed = useDebounce(search);
  // One character is not a search (the server refuses it): the list stays whole until a second one.
  const debounced = isSearchTooShort(typed) ? "" : typed;
  // Issue 23 §5: the owner filter ("my customers", without an owner, an agent's).
  const [owner, setOwner] = useState<OwnerFilterValue>("");
  const { data, isLoading, hasNextPage, isFetchingNextPage, fetchNextPage } = useContactsPage(debounced, owner);
  const contacts = data?.pages.flatMap((p) => p.contacts) ?? [];
  const onScroll = useInfiniteScroll({ hasNextPage, isFetching: isFetchingNextPage, fetchNextPage });
  const [modal, setModal] = useState<{ open: boolean; contactId?: number }>({ open: false });
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [merging, setMerging] = useState<Contact | null>(null);
  const [dataOf, setDataOf] = useState<Contact | null>(null);
  const [confirmImport, setConfirmImport] = useState(false);
  const [exporting, setExporting] = useState(false);
  const remove = useDeleteContact();
  const importContacts = useImportContacts();
  const startTicket = useStartTicket();
  // The server imports through the default connection; pictures come from any connection that fetches them.
  const canImport = useDefaultConnectionCan("importContacts");
  const showPictures = useAnyConnectionCan("profilePictures");

  const onExport = async () => {
    setExporting(true);
    try {
      downloadCsv(contactsToCsv(await fetchAllContacts(debounced)));
    } catch (error) {
      toastError(error);
    } finally {
      setExporting(false);
    }
  };

  const onStartTicket = (contact: Contact) => {
    if (!user) return;
    startTicket.mutate({ contactId: contact.id, userId: user.id }, { onSuccess: (ticket) => navigate(`/tickets/${ticket.id}`) });
  };

  const busy = importContacts.isPending || exporting;
  return (
    <PageContainer
      title={t("contacts.title")}
      onScroll={onScroll}
      actions={
        <>
          <SearchField value={search} onChange={setSearch} heavy />
          <OwnerFilter value={owner} onChange={setOwner} />
          {can(user, "contacts:import") && canImport && (
            <Button variant="contained" onClick={() => setConfirmImport(true)} disabled={busy}>
              {t("contacts.buttons.import")}
            </Button>
          )}
          <Button variant="contained" onClick={() => setModal({ open: true })}>
            {t("contacts.buttons.add")}
          </Button>
          <Button variant="contained" onClick={onExport} disabled={busy}>
            {t("contacts.buttons.export")}
          </Button>
        </>
      }
    >
      {busy && (
        <LinearProgress
          aria-label={importContacts.isPending ? t("contacts.importing") : t("contacts.exporting")}
          sx={{ mb: 1 }}
        />
      )}
      <ContactModal open={modal.open} contactId={modal.contactId} onClose={() => setModal({ open: false })} />
      <MergeContactDialog duplicate={merging} onClose={() => setMerging(null)} />
      <ContactDataDialog contact={dataOf} onClose={() => setDataOf(null)} />
      <ConfirmDialog
        open={!!deleting}
        title={t("contacts.confirmationModal.deleteTitle", { name: deleting?.name ?? "" })}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => toast.success(t("contacts.toasts.deleted")) })}
      >
        {t("contacts.confirmationModal.deleteMessage")}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmImport}
        title={t("contacts.confirmationModal.importTitle")}
        onClose={() => setConfirmImport(false)}
        onConfirm={() =>
          importContacts.mutate(undefined, { onSuccess: (counts) => toast.success(t("contacts.toasts.imported", counts)) })
        }
      >
        {t("contacts.confirmationModal.importMessage")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("contacts.title")}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Box component="span" sx={visuallyHidden}>
                {t("contacts.table.avatar")}
              </Box>
            </TableCell>
            <TableCell>{t("contacts.table.name")}</TableCell>
            <TableCell align="center">{t("contacts.table.whatsapp")}</TableCell>
            <TableCell align="center">{t("contacts.table.email")}</TableCell>
            <TableCell align="center">{t("contactOwner.owner")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("contacts.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {contacts.map((contact) => (
            <TableRow key={contact.id}>
              <TableCell padding="checkbox">
                <Avatar src={(showPictures && contact.profilePicUrl) || undefined} alt="" sx={{ width: 32, height: 32 }}>
                  {contact.name.charAt(0).toUpperCase()}
                </Avatar>
              </TableCell>
              <TableCell>{contact.name}</TableCell>
              <TableCell align="center">
                <PhoneNumber number={contact.number} username={contact.username} />
              </TableCell>
              <TableCell align="center">{contact.email}</TableCell>
              <TableCell align="center">
                {!contact.isGroup && (
                  <ContactOwnerField contactId={contact.id} contactName={contact.name} ownerId={contact.ownerId} dense />
                )}
              </TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                <IconButton
                  size="small"
                  aria-label={t("contacts.buttons.startTicket", { name: contact.name })}
                  onClick={() => onStartTicket(contact)}
                  disabled={startTicket.isPending}
                >
                  <WhatsAppIcon />
                </IconButton>
                <ScheduleButton
                  target={{ contactId: contact.id }}
                  label={t("schedules.actionFor", { name: contact.name })}
                  size="small"
                />
                <IconButton
                  size="small"
                  aria-label={t("common.editItem", { name: contact.name })}
                  onClick={() => setModal({ open: true, contactId: contact.id })}
                >
                  <Edit />
                </IconButton>
                {can(user, "contacts:merge") && !contact.isGroup && (
                  <IconButton
                    size="small"
                    aria-label={t("contacts.merge.action", { name: contact.name })}
                    onClick={() => setMerging(contact)}
                  >
                    <MergeType />
                  </IconButton>
                )}
                {(can(user, "contacts:exportData") || can(user, "contacts:erase")) && !contact.isGroup && (
                  <IconButton
                    size="small"
                    aria-label={t("contactData.actionFor", { name: contact.name })}
                    onClick={() => setDataOf(contact)}
                  >
                    <PrivacyTip />
                  </IconButton>
                )}
                {can(user, "contacts-page:deleteContact") && (
                  <IconButton
                    size="small"
                    aria-label={t("common.deleteItem", { name: contact.name })}
                    onClick={() => setDeleting(contact)}
                  >
                    <DeleteOutline />
                  </IconButton>
                )}
              </TableCell>
            </TableRow>
          ))}
          {(isLoading || isFetchingNextPage) && <TableLoadingRow columns={6} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
