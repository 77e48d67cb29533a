import type { SvgIconComponent } from '@mui/icons-material';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Build from '@mui/icons-material/Build';
import Business from '@mui/icons-material/Business';
import Category from '@mui/icons-material/Category';
import Dashboard from '@mui/icons-material/Dashboard';
import DocumentScanner from '@mui/icons-material/DocumentScanner';
import Drafts from '@mui/icons-material/Drafts';
import Email from '@mui/icons-material/Email';
import Inventory2 from '@mui/icons-material/Inventory2';
import ManageAccounts from '@mui/icons-material/ManageAccounts';
import People from '@mui/icons-material/People';
import Place from '@mui/icons-material/Place';
import RequestQuote from '@mui/icons-material/RequestQuote';
import Sensors from '@mui/icons-material/Sensors';
import Settings from '@mui/icons-material/Settings';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Tune from '@mui/icons-material/Tune';
import ViewDay from '@mui/icons-material/ViewDay';
import ViewQuilt from '@mui/icons-material/ViewQuilt';
import VpnKey from '@mui/icons-material/VpnKey';

/** Icons of the menu nodes of src/domain/access.ts, by node id. */
export const menuIcons: Record<string, SvgIconComponent> = {
  dashboard: Dashboard,
  scans: DocumentScanner,
  quotes: RequestQuote,
  configuration: ManageAccounts,
  users: People,
  roles: AdminPanelSettings,
  permissions: VpnKey,
  setting: Settings,
  devices: Sensors,
  locations: Place,
  clients: Business,
  agents: SupportAgent,
  products: Inventory2,
  parts: Build,
  panelgroups: Category,
  panels: ViewQuilt,
  'app-settings': Tune,
  'email-template': Email,
  'email-header-footer': ViewDay,
  'email-templates': Drafts,
};
