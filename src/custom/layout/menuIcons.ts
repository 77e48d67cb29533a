import type { SvgIconComponent } from '@mui/icons-material';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Apartment from '@mui/icons-material/Apartment';
import Assignment from '@mui/icons-material/Assignment';
import Build from '@mui/icons-material/Build';
import Business from '@mui/icons-material/Business';
import CarRepair from '@mui/icons-material/CarRepair';
import Category from '@mui/icons-material/Category';
import Dashboard from '@mui/icons-material/Dashboard';
import DirectionsCar from '@mui/icons-material/DirectionsCar';
import DocumentScanner from '@mui/icons-material/DocumentScanner';
import Drafts from '@mui/icons-material/Drafts';
import Email from '@mui/icons-material/Email';
import Folder from '@mui/icons-material/Folder';
import Inventory2 from '@mui/icons-material/Inventory2';
import Label from '@mui/icons-material/Label';
import LocalOffer from '@mui/icons-material/LocalOffer';
import ManageAccounts from '@mui/icons-material/ManageAccounts';
import People from '@mui/icons-material/People';
import Place from '@mui/icons-material/Place';
import Receipt from '@mui/icons-material/Receipt';
import RequestQuote from '@mui/icons-material/RequestQuote';
import Sensors from '@mui/icons-material/Sensors';
import Settings from '@mui/icons-material/Settings';
import Shield from '@mui/icons-material/Shield';
import Store from '@mui/icons-material/Store';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Tune from '@mui/icons-material/Tune';
import ViewDay from '@mui/icons-material/ViewDay';
import ViewQuilt from '@mui/icons-material/ViewQuilt';
import VpnKey from '@mui/icons-material/VpnKey';
import Work from '@mui/icons-material/Work';

/**
 * The icons a menu node may name (`icon` in src/domain/access.ts and in a resource's definition), by their MUI name.
 * A new resource picks one of these, or adds its icon here.
 */
export const menuIcons: Record<string, SvgIconComponent> = {
  AdminPanelSettings,
  Apartment,
  Assignment,
  Build,
  Business,
  CarRepair,
  Category,
  Dashboard,
  DirectionsCar,
  DocumentScanner,
  Drafts,
  Email,
  Folder,
  Inventory2,
  Label,
  LocalOffer,
  ManageAccounts,
  People,
  Place,
  Receipt,
  RequestQuote,
  Sensors,
  Settings,
  Shield,
  Store,
  SupportAgent,
  Tune,
  ViewDay,
  ViewQuilt,
  VpnKey,
  Work,
};
