export { FaceCard } from './FaceCard';
